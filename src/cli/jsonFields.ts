/**
 * A few top-level fields of one JSON object, read straight from its bytes. Indexing a 300,000-line
 * run needs three short fields of each ~4 KB record: parsing whole lines spent most of resume's
 * time decoding and building values that were thrown away at once, and their garbage set its peak
 * memory. The scan checks the object's shape (keys, values, nesting, commas) as it goes; only the
 * fields asked for are decoded, with JSON.parse, so their escapes mean what they mean in JSON.
 */
import { AppError } from '../lib/errors/appError.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Not a JSON object, or torn: the reader says where. */
export class NotJsonObjectError extends AppError {
	constructor(at: number) {
		super(`not a JSON object (at byte ${at})`, { code: 'not_json_object' });
		this.name = 'NotJsonObjectError';
	}
}

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The keys a reader wants, kept as bytes so the scan compares keys without decoding them. */
export class FieldNames {
	readonly #names: { name: string; bytes: Buffer }[];
	constructor(names: readonly string[]) {
		this.#names = names.map((name) => ({ name, bytes: Buffer.from(JSON.stringify(name)) }));
	}

	/** Which wanted key the string at [start, end) (quotes included) is, if any. */
	match(line: Buffer, start: number, end: number): string | undefined {
		for (const { name, bytes } of this.#names) {
			if (bytes.length === end - start && line.compare(bytes, 0, bytes.length, start, end) === 0) {
				return name;
			}
		}
		// A key spelled with escapes ("k\u0065y") is the same key: decode it (rare, never ours).
		const slash = line.indexOf(BACKSLASH, start);
		if (slash !== -1 && slash < end) {
			const key = decode(line, start, end);
			return this.#names.find((n) => n.name === key)?.name;
		}
		return undefined;
	}
}

/**
 * The values of the top-level keys in `names` that `line` holds (absent keys are left out).
 * @throws NotJsonObjectError when the bytes are not one JSON object.
 */
export function pickFields(line: Buffer, names: FieldNames): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	let i = skipSpace(line, 0);
	if (line[i] !== OPEN_OBJECT) throw new NotJsonObjectError(i);
	i = skipSpace(line, i + 1);
	if (line[i] === CLOSE_OBJECT) return finish(line, i + 1, out);
	for (;;) {
		if (line[i] !== QUOTE) throw new NotJsonObjectError(i);
		const keyEnd = stringEnd(line, i);
		const key = names.match(line, i, keyEnd);
		i = skipSpace(line, keyEnd);
		if (line[i] !== COLON) throw new NotJsonObjectError(i);
		const start = skipSpace(line, i + 1);
		const end = valueEnd(line, start);
		if (key !== undefined) out[key] = decode(line, start, end);
		i = skipSpace(line, end);
		if (line[i] === CLOSE_OBJECT) return finish(line, i + 1, out);
		if (line[i] !== COMMA) throw new NotJsonObjectError(i);
		i = skipSpace(line, i + 1);
	}
}

function finish(line: Buffer, i: number, out: Record<string, unknown>): Record<string, unknown> {
	const rest = skipSpace(line, i);
	if (rest !== line.length) throw new NotJsonObjectError(rest);
	return out;
}

function skipSpace(line: Buffer, i: number): number {
	while (i < line.length && isSpace(line[i])) i++;
	return i;
}

/** The byte after the string that opens at `i` (a quote). */
function stringEnd(line: Buffer, i: number): number {
	for (let q = line.indexOf(QUOTE, i + 1); q !== -1; q = line.indexOf(QUOTE, q + 1)) {
		let slashes = 0;
		while (line[q - 1 - slashes] === BACKSLASH) slashes++;
		if (slashes % 2 === 0) return q + 1;
	}
	throw new NotJsonObjectError(line.length);
}

/** The byte after the value that starts at `i`: a string, an object or array, or a literal. */
function valueEnd(line: Buffer, i: number): number {
	const b = line[i];
	if (b === QUOTE) return stringEnd(line, i);
	if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
		let depth = 0;
		for (let j = i; j < line.length; j++) {
			const c = line[j];
			if (c === QUOTE) j = stringEnd(line, j) - 1;
			else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
			else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return j + 1;
		}
		throw new NotJsonObjectError(line.length);
	}
	let j = i;
	while (j < line.length) {
		const c = line[j];
		if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) break;
		j++;
	}
	if (j === i) throw new NotJsonObjectError(i);
	return j;
}

function decode(line: Buffer, start: number, end: number): unknown {
	try {
		return JSON.parse(line.toString('utf8', start, end)) as unknown;
	} catch {
		throw new NotJsonObjectError(start);
	}
}
