/**
 * A JSONL file read line by line from a stream, never as one string: memory stays at one chunk
 * plus one line whatever the file's size (a single string stops at ~512 MiB in V8).
 *
 * Each line comes with its byte offsets, so a store can index where a record is and read it back
 * later instead of keeping it in memory.
 */
import { AppError } from '../lib/errors/appError.ts';
import { createReadStream, existsSync } from 'node:fs';

export interface Line {
	/** 1-based, as an editor counts. */
	number: number;
	/** Byte offset of the line's first byte, and of the byte after it (before its "\n"). */
	start: number;
	end: number;
	text: string;
	/** False only for a last line without its "\n": a torn write, or a file written by hand. */
	terminated: boolean;
}

const NL = 0x0a;
const CHUNK = 1 << 20;

/** A line as bytes: a view into the read buffer, valid only until the next line is asked for. */
export interface LineBytes extends Omit<Line, 'text'> {
	bytes: Buffer;
}

/** The file's lines, blank ones included (callers skip them). @throws when the file is missing. */
export async function* readLines(path: string): AsyncGenerator<Line> {
	for await (const { bytes, ...line } of readLineBytes(path)) {
		yield { ...line, text: bytes.toString('utf8') };
	}
}

/**
 * The file's lines as bytes, for readers that decode only part of each line (a 4 KB record whose
 * three short fields are all they need). @throws when the file is missing.
 */
export async function* readLineBytes(path: string): AsyncGenerator<LineBytes> {
	let number = 0;
	let offset = 0; // byte offset of the current chunk's first byte
	// The start of a line that began in an earlier chunk (small: copied out, never a whole chunk).
	let carry: Buffer[] = [];
	let carryStart = 0;
	for await (const chunk of createReadStream(path, {
		highWaterMark: CHUNK
	}) as AsyncIterable<Buffer>) {
		let from = 0;
		for (let nl = chunk.indexOf(NL); nl !== -1; nl = chunk.indexOf(NL, from)) {
			let bytes: Buffer;
			let start = offset + from;
			if (carry.length > 0) {
				start = carryStart;
				bytes = Buffer.concat([...carry, chunk.subarray(0, nl)]);
				carry = [];
			} else bytes = chunk.subarray(from, nl);
			yield { number: ++number, start, end: offset + nl, bytes, terminated: true };
			from = nl + 1;
		}
		if (from < chunk.length) {
			if (carry.length === 0) carryStart = offset + from;
			carry.push(Buffer.from(chunk.subarray(from)));
		}
		offset += chunk.length;
	}
	if (carry.length > 0) {
		yield {
			number: number + 1,
			start: carryStart,
			end: offset,
			bytes: Buffer.concat(carry),
			terminated: false
		};
	}
}

/** A missing input file, said plainly (not ENOENT with a stack). */
export class MissingFileError extends AppError {
	constructor(path: string, what = 'file') {
		super(`no such ${what}: ${path}`, { code: 'missing_file' });
		this.name = 'MissingFileError';
	}
}

export function requireFile(path: string, what?: string): void {
	if (!existsSync(path)) throw new MissingFileError(path, what);
}
