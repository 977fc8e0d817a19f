/**
 * Reading a reply body with a ceiling on its size. A hostile or broken server can send a gigabyte
 * (a JSON body, a /props, an error page); `res.text()` would hold all of it, and past 512 MiB V8
 * cannot even make the string. Reading chunk by chunk and stopping at `maxBytes` bounds the memory
 * whatever the server sends.
 */

import { AppError } from '../errors/appError.ts';

/** The body went past its ceiling; the reader is cancelled and what was read is dropped. */
export class BodyTooLargeError extends AppError {
	readonly maxBytes: number;
	constructor(maxBytes: number) {
		super(`the reply is larger than ${maxBytes} bytes`, { code: 'too-large' });
		this.name = 'BodyTooLargeError';
		this.maxBytes = maxBytes;
	}
}

/** Counts a stream's bytes as they pass. @throws BodyTooLargeError once more than `maxBytes` came. */
export class ByteBudget {
	readonly maxBytes: number;
	#seen = 0;
	constructor(maxBytes: number) {
		this.maxBytes = maxBytes;
	}
	take(bytes: number): void {
		this.#seen += bytes;
		if (this.#seen > this.maxBytes) throw new BodyTooLargeError(this.maxBytes);
	}
}

/**
 * The body as text, read chunk by chunk; `onChunk` runs per read (an idle deadline's touch).
 * With `truncate`, a longer body gives its first `maxBytes` instead of failing (an error page).
 * @throws BodyTooLargeError past `maxBytes` (the download is cancelled), or what reading threw.
 */
export async function readCappedText(
	res: { body?: ReadableStream<Uint8Array> | null; text(): Promise<string> },
	maxBytes: number,
	opts: { onChunk?: () => void; truncate?: boolean } = {}
): Promise<string> {
	if (!res.body) return res.text();
	const reader = res.body.getReader();
	const decoder = new TextDecoder();
	const parts: string[] = [];
	let seen = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			seen += value.byteLength;
			if (seen > maxBytes) {
				if (!opts.truncate) throw new BodyTooLargeError(maxBytes);
				parts.push(decoder.decode(value.subarray(0, value.byteLength - (seen - maxBytes))));
				return parts.join('');
			}
			opts.onChunk?.();
			parts.push(decoder.decode(value, { stream: true }));
		}
		parts.push(decoder.decode());
		return parts.join('');
	} finally {
		reader.cancel().catch(() => {});
	}
}
