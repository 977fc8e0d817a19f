/**
 * RunStore on plain files, for the CLI: records in OUT.jsonl (the same format the web app imports),
 * answers in OUT.answers.jsonl, the manifest in OUT.manifest.json.
 *
 * Every put is one appendFileSync of one whole line, so Ctrl-C cannot tear a record in half; a torn
 * tail from a crash (a last line without its newline) is repaired by `open()`, which only `run`
 * calls. A record stored twice (judged after it was first written) is read back last-write-wins
 * and compacted by `compact()`.
 *
 * Memory does not grow with the file: opening streams the files once and keeps only an index (a
 * key as two interned codes, its label and byte offsets, ~45 bytes a record); records and answers
 * are read back by offset when needed.
 */
import { AppError } from '../lib/errors/appError.ts';
import {
	appendFileSync,
	closeSync,
	existsSync,
	ftruncateSync,
	openSync,
	readFileSync,
	readSync,
	renameSync,
	rmSync,
	statSync,
	truncateSync,
	writeFileSync,
	writeSync
} from 'node:fs';
import type { RunStore, StoredRecords } from '../lib/probe/store.ts';
import {
	LABELS,
	type AnswerRecord,
	type Label,
	type ProbeRecord,
	type RunManifest
} from '../lib/probe/types.ts';
import { diskFullError, freeBytes, isDiskFull, spaceText } from './diskFull.ts';
import { FieldNames, NotJsonObjectError, pickFields } from './jsonFields.ts';
import { LineIndex, type IndexEntry } from './lineIndex.ts';
import { readLineBytes } from './lines.ts';
import { realPaths } from './realPath.ts';

export function sidecarPaths(out: string): { records: string; answers: string; manifest: string } {
	const stem = out.endsWith('.jsonl') ? out.slice(0, -'.jsonl'.length) : out;
	return { records: out, answers: `${stem}.answers.jsonl`, manifest: `${stem}.manifest.json` };
}

/** A line of a file this store owns that is not what it wrote: stop, and say where. */
export class CorruptFileError extends AppError {
	constructor(path: string, line: number, why: string) {
		super(`${path} line ${line}: ${why}`, {
			code: 'corrupt_file',
			recovery: 'Fix or delete that line, or start a new run with another --out.'
		});
		this.name = 'CorruptFileError';
	}
}

/** The manifest at `path`, if any. @throws CorruptFileError when it is not JSON. */
export function readManifest(path: string): RunManifest | undefined {
	if (!existsSync(path)) return undefined;
	try {
		return JSON.parse(readFileSync(path, 'utf8')) as RunManifest;
	} catch {
		throw new CorruptFileError(path, 1, 'not a JSON manifest');
	}
}

const LABEL_SET = new Set<unknown>(LABELS);
/** All that indexing reads of a line; the rest of it stays bytes on disk. */
const RECORD_FIELDS = new FieldNames([
	'run_id',
	'key',
	'label',
	'reference_turn',
	'reference_grounding_raw'
]);

/**
 * The label the index keeps, null for a record resume must read whole: one waiting for its label,
 * or for the judge's comparison with its reference turn (resume redoes that comparison).
 */
function indexLabel(r: Record<string, unknown>): Label | null {
	const comparing =
		typeof r.reference_turn === 'string' && (r.reference_grounding_raw ?? null) === null;
	return !comparing && LABEL_SET.has(r.label) ? (r.label as Label) : null;
}
const ANSWER_FIELDS = new FieldNames(['run_id', 'item_id']);

export class JsonlStore implements RunStore {
	readonly paths: ReturnType<typeof sidecarPaths>;
	readonly #records = new LineIndex();
	readonly #answers = new LineIndex();
	#recordsSize = 0;
	#answersSize = 0;
	#manifest: RunManifest | undefined;
	#rewrites = 0;

	private constructor(out: string) {
		// Through their links: a rename (compaction, the manifest) replaces the target, not the link.
		this.paths = realPaths(sidecarPaths(out));
	}

	/**
	 * Index the run's files (streaming, memory bounded by the index), cutting a torn last line off
	 * the records and answers files first: only `run`, which owns the files, may call this.
	 * @throws CorruptFileError when a whole line is not a record (the file is someone else's).
	 */
	static async open(out: string): Promise<JsonlStore> {
		const store = new JsonlStore(out);
		const records = await index(store.paths.records, store.#records, RECORD_FIELDS, (r) => {
			if (typeof r.key !== 'string' || typeof r.run_id !== 'string') return undefined;
			return { run_id: r.run_id, key: r.key, label: indexLabel(r) };
		});
		store.#recordsSize = records.size;
		store.#rewrites = records.lines - store.#records.size;
		const answers = await index(store.paths.answers, store.#answers, ANSWER_FIELDS, (a) => {
			if (typeof a.item_id !== 'string' || typeof a.run_id !== 'string') return undefined;
			return { run_id: a.run_id, key: a.item_id, label: null };
		});
		store.#answersSize = answers.size;
		store.#manifest = readManifest(store.paths.manifest);
		return store;
	}

	/** The run this file already holds: re-running the same command resumes it. */
	get runId(): string | undefined {
		return this.#manifest?.run_id;
	}

	/** Whether the records file holds any record, of any run. */
	get hasRecords(): boolean {
		return this.#records.size > 0;
	}

	/** The stored manifest, whichever run it is of (the config check reads it). */
	get manifest(): RunManifest | undefined {
		return this.#manifest;
	}

	async putManifest(manifest: RunManifest): Promise<void> {
		this.#manifest = manifest;
		writeManifest(this.paths.manifest, JSON.stringify(manifest, null, '\t') + '\n');
	}

	async getManifest(runId: string): Promise<RunManifest | undefined> {
		return this.#manifest?.run_id === runId ? this.#manifest : undefined;
	}

	async getAnswer(runId: string, itemId: string): Promise<AnswerRecord | undefined> {
		const e = this.#answers.get(runId, itemId);
		return e && (JSON.parse(readRanges(this.paths.answers, [e])[0]) as AnswerRecord);
	}

	async putAnswer(answer: AnswerRecord): Promise<void> {
		const at = append(this.paths.answers, answer, this.#answersSize);
		this.#answersSize = at.end + 1;
		this.#answers.set(answer.run_id, answer.item_id, null, at.start, at.end);
	}

	async putRecord(record: ProbeRecord): Promise<void> {
		const at = append(this.paths.records, record, this.#recordsSize);
		this.#recordsSize = at.end + 1;
		const label = indexLabel(record as unknown as Record<string, unknown>);
		if (this.#records.set(record.run_id, record.key, label, at.start, at.end)) {
			this.#rewrites++;
		}
	}

	/** Every record of the run, whole: read back from the file (resume does not need this). */
	async getRecords(runId: string): Promise<ProbeRecord[]> {
		return readRanges(this.paths.records, [...this.#records.entries(runId)]).map(
			(text) => JSON.parse(text) as ProbeRecord
		);
	}

	/**
	 * The run's records by key, as resume asks for them: a labelled one as its key and label, from
	 * the index; the few waiting for the judge, whole (read back now). Nothing per record is held
	 * beyond the index.
	 */
	async getResumeRecords(runId: string): Promise<StoredRecords> {
		const waiting = new Map<string, ProbeRecord>();
		// One entry at a time: a million entries spread into an array peaked at ~100 MB.
		const pending: IndexEntry[] = [];
		for (const e of this.#records.entries(runId)) if (e.label === null) pending.push(e);
		for (const text of readRanges(this.paths.records, pending)) {
			const r = JSON.parse(text) as ProbeRecord;
			waiting.set(r.key, r);
		}
		return {
			get: (key) => {
				const whole = waiting.get(key);
				if (whole) return whole;
				const label = this.#records.get(runId, key)?.label;
				return label ? { key, label } : undefined;
			}
		};
	}

	/**
	 * Rewrite the records file with one line per key (atomic rename), if anything was stored twice.
	 * The copy needs as much space again; on a disk without it the file is left as it is (it reads
	 * the same: the last line of a record wins) and the returned note says so.
	 */
	async compact(): Promise<string | undefined> {
		if (this.#rewrites === 0) return undefined;
		const need = statSync(this.paths.records).size;
		const free = freeBytes(this.paths.records);
		if (free !== undefined && free < need) return compactSkipped(this.paths.records, need);
		try {
			await this.#compact();
		} catch (err) {
			rmSync(`${this.paths.records}.tmp`, { force: true });
			if (isDiskFull(err)) return compactSkipped(this.paths.records, need);
			throw err;
		}
		return undefined;
	}

	async #compact(): Promise<void> {
		const tmp = `${this.paths.records}.tmp`;
		const fd = openSync(tmp, 'w');
		// The latest lines' starts in file order, and where each lands: two numbers per record.
		const latest = this.#records.sortedStarts();
		const moved = new Float64Array(latest.length);
		let next = 0;
		let size = 0;
		try {
			for await (const line of readLineBytes(this.paths.records)) {
				if (line.start !== latest[next]) continue;
				writeSync(fd, line.bytes);
				writeSync(fd, NEWLINE);
				moved[next++] = size;
				size += line.bytes.length + 1;
			}
		} finally {
			closeSync(fd);
		}
		renameSync(tmp, this.paths.records);
		this.#records.relocate(latest, moved);
		this.#recordsSize = size;
		this.#rewrites = 0;
	}
}

const NEWLINE = Buffer.from('\n');

/**
 * Stream `path` into `into` (last line per id wins); return how many records it holds and its size
 * in bytes after a torn tail was cut off (or, when that tail is a whole record without its newline,
 * completed).
 */
async function index(
	path: string,
	into: LineIndex,
	fields: FieldNames,
	read: (
		value: Record<string, unknown>
	) => { run_id: string; key: string; label: Label | null } | undefined
): Promise<{ size: number; lines: number }> {
	if (!existsSync(path)) return { size: 0, lines: 0 };
	let lines = 0;
	let size = statSync(path).size;
	for await (const line of readLineBytes(path)) {
		if (isBlank(line.bytes)) continue;
		let value: Record<string, unknown>;
		try {
			value = pickFields(line.bytes, fields);
		} catch (err) {
			if (!(err instanceof NotJsonObjectError)) throw err;
			if (!line.terminated) {
				// A crash mid-append: the record was never stored; the run makes it again.
				truncateSync(path, line.start);
				size = line.start;
				break;
			}
			throw new CorruptFileError(path, line.number, 'not JSON');
		}
		const head = read(value);
		if (head === undefined) throw new CorruptFileError(path, line.number, 'not a probe record');
		if (!line.terminated) {
			appendFileSync(path, '\n');
			size += 1;
		}
		lines++;
		into.set(head.run_id, head.key, head.label, line.start, line.end);
	}
	return { size, lines };
}

function isBlank(bytes: Buffer): boolean {
	for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
	return true;
}

/**
 * One whole line in one write (Ctrl-C cannot tear it); where it landed, [start, end) sans "\n".
 * A write the disk cut short is cut off again, so the file never ends in a torn line.
 * @throws StorageFullError naming the file when the disk is full.
 */
function append(path: string, value: object, size: number): { start: number; end: number } {
	const line = JSON.stringify(value) + '\n';
	try {
		appendFileSync(path, line);
	} catch (err) {
		if (existsSync(path) && statSync(path).size > size) truncateSync(path, size);
		throw diskFullError(path, Buffer.byteLength(line), err);
	}
	return { start: size, end: size + Buffer.byteLength(line) - 1 };
}

/**
 * Replace the manifest atomically (a temporary file, renamed). On a full disk the temporary file
 * is removed, and a manifest no longer than the one stored is written over it in place, which
 * needs no new space: the run's status ('paused') is kept even then.
 * @throws StorageFullError naming the file when neither fits.
 */
function writeManifest(path: string, text: string): void {
	const tmp = `${path}.tmp`;
	try {
		writeFileSync(tmp, text);
		renameSync(tmp, path);
		return;
	} catch (err) {
		rmSync(tmp, { force: true });
		const bytes = Buffer.byteLength(text);
		if (!isDiskFull(err) || !existsSync(path) || statSync(path).size < bytes)
			throw diskFullError(path, bytes, err);
	}
	const fd = openSync(path, 'r+');
	try {
		writeSync(fd, text, 0);
		ftruncateSync(fd, Buffer.byteLength(text));
	} finally {
		closeSync(fd);
	}
}

function compactSkipped(path: string, need: number): string {
	return (
		`note: ${path} was not compacted (the copy ${spaceText(path, need)}); it reads the same ` +
		`(the last line of a record counts), and the next run compacts it when there is space`
	);
}

/** The bytes [start, end) of each entry, decoded, through one file descriptor. */
function readRanges(path: string, entries: readonly { start: number; end: number }[]): string[] {
	if (entries.length === 0) return [];
	const fd = openSync(path, 'r');
	try {
		return entries.map((e) => {
			const buf = Buffer.alloc(e.end - e.start);
			let got = 0;
			while (got < buf.length) {
				const n = readSync(fd, buf, got, buf.length - got, e.start + got);
				if (n === 0) break;
				got += n;
			}
			return buf.toString('utf8');
		});
	} finally {
		closeSync(fd);
	}
}
