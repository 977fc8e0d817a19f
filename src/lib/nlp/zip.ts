/**
 * Named members of a zip, checked: each inflates to exactly the size its entry declares, with the
 * declared CRC-32, and to no more than MEMBER_MAX_BYTES. fflate's unzipSync sizes its output by
 * the declared size and cuts a longer member off silently (a stop-word list of 1,000 bytes that
 * inflates to 1 GiB became `{"a"}`); here a member that fails a check is an error, never data.
 */
import { AppError } from '../errors/appError.ts';
import { Inflate } from 'fflate';

/** Far above any member the NLP data has (the tagger's weights are a few MB). */
export const MEMBER_MAX_BYTES = 64 * 1024 * 1024;

/** Why a zip could not be read; the caller says where it came from. */
export class ZipError extends AppError {
	constructor(message: string) {
		super(message, { code: 'zip' });
		this.name = 'ZipError';
	}
}

interface Entry {
	method: number;
	crc: number;
	compressedSize: number;
	size: number;
	localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The members named, in order; undefined for a member the zip lacks.
 * @throws ZipError when the zip is malformed or a member fails its size, CRC or cap check.
 */
export function readZipMembers(
	bytes: Uint8Array,
	names: readonly string[]
): (Uint8Array | undefined)[] {
	const entries = centralDirectory(bytes);
	return names.map((name) => {
		const e = entries.get(name);
		return e && inflateMember(bytes, name, e);
	});
}

function centralDirectory(bytes: Uint8Array): Map<string, Entry> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let end = -1;
	// The end record is 22 bytes plus a comment of at most 65,535.
	for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
		if (view.getUint32(i, true) === EOCD) {
			end = i;
			break;
		}
	}
	if (end < 0) throw new ZipError('no end of central directory (not a zip, or cut off)');
	const count = view.getUint16(end + 10, true);
	let at = view.getUint32(end + 16, true);
	const out = new Map<string, Entry>();
	const decoder = new TextDecoder();
	for (let n = 0; n < count; n++) {
		if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL)
			throw new ZipError('its central directory is damaged');
		const nameLength = view.getUint16(at + 28, true);
		const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
		out.set(decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)), {
			method: view.getUint16(at + 10, true),
			crc: view.getUint32(at + 16, true),
			compressedSize: view.getUint32(at + 20, true),
			size: view.getUint32(at + 24, true),
			localOffset: view.getUint32(at + 42, true)
		});
		at += 46 + skip;
	}
	return out;
}

function inflateMember(bytes: Uint8Array, name: string, e: Entry): Uint8Array {
	if (e.size > MEMBER_MAX_BYTES)
		throw new ZipError(
			`${name} declares ${e.size} bytes, more than the ${MEMBER_MAX_BYTES} allowed`
		);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const local = e.localOffset;
	if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL)
		throw new ZipError(`${name}: its local header is missing`);
	const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
	const data = bytes.subarray(start, start + e.compressedSize);
	if (data.length !== e.compressedSize) throw new ZipError(`${name} is cut off`);
	let out: Uint8Array;
	if (e.method === 0) out = data;
	else if (e.method === 8) out = inflateCapped(data, name, e.size);
	else throw new ZipError(`${name} uses compression method ${e.method}, which is not supported`);
	if (out.length !== e.size)
		throw new ZipError(`${name} holds ${out.length} bytes but declares ${e.size}`);
	if (crc32(out) !== e.crc) throw new ZipError(`${name} fails its CRC-32 check (damaged)`);
	return out;
}

/** Inflate, stopping as soon as the output passes `declared` bytes (a zip bomb stops early). */
function inflateCapped(data: Uint8Array, name: string, declared: number): Uint8Array {
	const out = new Uint8Array(declared);
	let size = 0;
	const inflater = new Inflate((chunk) => {
		if (size + chunk.length > declared)
			throw new ZipError(`${name} inflates to more than the ${declared} bytes it declares`);
		out.set(chunk, size);
		size += chunk.length;
	});
	const STEP = 64 * 1024;
	try {
		for (let i = 0; i < data.length; i += STEP)
			inflater.push(data.subarray(i, i + STEP), i + STEP >= data.length);
		if (data.length === 0) inflater.push(data, true);
	} catch (err) {
		if (err instanceof ZipError) throw err;
		throw new ZipError(`${name} does not inflate (${err instanceof Error ? err.message : err})`);
	}
	return out.subarray(0, size);
}

/** CRC-32 (zip's polynomial): fflate computes it internally but does not export it. */
let table: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
	if (!table) {
		table = new Uint32Array(256);
		for (let n = 0; n < 256; n++) {
			let c = n;
			for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
			table[n] = c >>> 0;
		}
	}
	let c = 0xffffffff;
	for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}
