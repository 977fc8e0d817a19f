/**
 * The user's own data: a JSONL, JSON or CSV file → DatasetItems, or one error listing every
 * problem with its line or row, so a fix-and-retry loop takes one round, not one per typo.
 */
import Papa from 'papaparse';
import type { DatasetItem } from '../probe/types.ts';
import { DatasetImportError } from './errors.ts';
import { recordToItem } from './importRecord.ts';

/** One parsed record and where it came from, for messages and default ids. */
interface SourceRecord {
	/** "line 7", "row 3 (CSV)", "item 2". */
	where: string;
	/** Line, row or item number; the default id is `<file stem>-<number>`. */
	number: number;
	value: unknown;
}

type Format = 'jsonl' | 'json' | 'csv' | 'tsv';

/** Columns one of which a CSV needs before its rows are worth checking one by one. */
const CSV_PROMPT_COLUMNS = ['prompt', 'question', 'messages'];
/** CSV cells holding JSON (lists, objects) rather than text. */
const CSV_JSON_COLUMNS = ['messages', 'instruction_ids', 'instruction_id_list', 'kwargs'];

/**
 * Parse a user's dataset file. JSONL (one object per line; blank lines are skipped), a JSON list,
 * or CSV/TSV with a header row. The format comes from the extension (.jsonl/.ndjson, .json,
 * .csv/.tsv), else from the first character. Ids come from an `id` field, else
 * `<file name without extension>-<line>` (CSV: the spreadsheet row, header = row 1).
 * @throws DatasetImportError listing every problem ("line 7: missing 'question' or 'prompt'").
 */
export function parseUserDataset(text: string, filename: string): DatasetItem[] {
	const body = text.replace(/^\uFEFF/, '');
	const problems: string[] = [];
	const records = readRecords(body, detectFormat(body, filename), problems);
	const stem = fileStem(filename);
	const items: DatasetItem[] = [];
	const firstSeen = new Map<string, string>();
	for (const rec of records) {
		const result = recordToItem(rec.value, `${stem}-${rec.number}`);
		if (result.problems) {
			problems.push(...result.problems.map((p) => `${rec.where}: ${p}`));
			continue;
		}
		const earlier = firstSeen.get(result.item.id);
		if (earlier !== undefined) {
			problems.push(`${rec.where}: duplicate id '${result.item.id}' (first used on ${earlier})`);
			continue;
		}
		firstSeen.set(result.item.id, rec.where);
		items.push(result.item);
	}
	if (problems.length === 0 && items.length === 0) problems.push('the file has no items');
	if (problems.length > 0) throw new DatasetImportError(filename, problems);
	return items;
}

export function detectFormat(text: string, filename: string): Format {
	const ext = filename.toLowerCase().match(/\.([a-z]+)$/)?.[1];
	if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
	if (ext === 'csv' || ext === 'tsv') return ext;
	const first = text.trimStart()[0];
	if (ext === 'json') return first === '[' ? 'json' : 'jsonl';
	if (first === '[') return 'json';
	return first === '{' || first === '"' ? 'jsonl' : 'csv';
}

function readRecords(text: string, format: Format, problems: string[]): SourceRecord[] {
	if (format === 'csv' || format === 'tsv') return readCsv(text, format, problems);
	if (format === 'json') {
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch (err) {
			problems.push(`invalid JSON (${errorMessage(err)})`);
			return [];
		}
		if (!Array.isArray(parsed)) {
			problems.push('a .json file must hold a list of items (or use one object per line, JSONL)');
			return [];
		}
		return parsed.map((value: unknown, i) => ({ where: `item ${i + 1}`, number: i + 1, value }));
	}
	const records: SourceRecord[] = [];
	text.split(/\r?\n/).forEach((line, i) => {
		if (line.trim() === '') return;
		const where = `line ${i + 1}`;
		try {
			records.push({ where, number: i + 1, value: JSON.parse(line) });
		} catch (err) {
			problems.push(`${where}: invalid JSON (${errorMessage(err)})`);
		}
	});
	return records;
}

function readCsv(text: string, format: 'csv' | 'tsv', problems: string[]): SourceRecord[] {
	// Arrays, not header mode: papaparse's header mode renumbers rows around skipped blank lines,
	// and row numbers must match what a spreadsheet shows.
	const delimiter = format === 'tsv' ? '\t' : sniffDelimiter(text);
	const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false, delimiter });
	for (const err of parsed.errors) {
		problems.push(`row ${(err.row ?? 0) + 1} (CSV): ${err.message}`);
	}
	const [header, ...rows] = parsed.data;
	const columns = (header ?? []).map((h) => h.trim().toLowerCase());
	if (!columns.some((c) => CSV_PROMPT_COLUMNS.includes(c))) {
		const found = columns.filter((c) => c !== '').join(', ') || 'none';
		problems.push(
			`row 1 (CSV): the header needs a 'prompt', 'question' or 'messages' column (found: ${found})`
		);
		return [];
	}
	const records: SourceRecord[] = [];
	rows.forEach((cells, i) => {
		const rowNumber = i + 2;
		const where = `row ${rowNumber} (CSV)`;
		if (cells.every((c) => c.trim() === '')) return;
		if (cells.length > columns.length) {
			const sep = delimiter === '\t' ? 'tabs' : `'${delimiter}'`;
			problems.push(
				`${where}: ${cells.length} cells but the header has ${columns.length} columns ` +
					`(put text containing ${sep} in double quotes)`
			);
			return;
		}
		const value: Record<string, unknown> = {};
		cells.forEach((cell, c) => {
			if (cell.trim() === '' || columns[c] === '') return;
			value[columns[c]] = CSV_JSON_COLUMNS.includes(columns[c]) ? parseJsonCell(cell) : cell;
		});
		records.push({ where, number: rowNumber, value });
	});
	return records;
}

/**
 * The header line's most frequent separator: Excel writes ';' in locales with a decimal comma.
 * papaparse's own guess needs two consistent data rows and misreads one-row or one-column files.
 */
export function sniffDelimiter(text: string): string {
	const header = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
	const unquoted = header.replace(/"[^"]*"/g, '');
	let best = ',';
	let bestCount = 0;
	for (const d of [',', ';', '\t']) {
		const count = unquoted.split(d).length - 1;
		if (count > bestCount) [best, bestCount] = [d, count];
	}
	return best;
}

/** A JSON cell that does not parse is passed on as text, so the record check names the column. */
function parseJsonCell(cell: string): unknown {
	try {
		return JSON.parse(cell);
	} catch {
		return cell;
	}
}

function fileStem(filename: string): string {
	const base = filename.split(/[\\/]/).pop() ?? filename;
	return base.replace(/\.[^.]+$/, '') || 'item';
}

function errorMessage(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
