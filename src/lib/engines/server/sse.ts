/**
 * Server-sent events as OpenAI-compatible servers send them: `data: …` lines, events ended by a
 * blank line, LF or CRLF (or bare CR) line ends, and reads that split anywhere, even mid-line or
 * between a CR and its LF. Only `data` fields matter here (and llama-server's older `error` field);
 * `event:`/`id:` and comments are skipped.
 */

import { ByteBudget } from '../../net/cappedBody.ts';

/**
 * Yields each event's data (multi-line data joined with "\n"), in order. `onChunk` runs per read
 * (the idle timer); `signal` cancels the body directly, for fetch implementations that would
 * otherwise leave a pending read hanging.
 * @throws BodyTooLargeError once the body passes `maxBytes` (the download is cancelled).
 */
export async function* sseData(
	body: ReadableStream<Uint8Array>,
	opts: { onChunk?: () => void; signal?: AbortSignal; maxBytes?: number } = {}
): AsyncGenerator<string> {
	const reader = body.getReader();
	const parser = new SseParser();
	// A stream that never ends (or one endless line) stops here, before it fills memory.
	const budget = new ByteBudget(opts.maxBytes ?? Infinity);
	const cancel = () => reader.cancel().catch(() => {});
	if (opts.signal?.aborted) cancel();
	else opts.signal?.addEventListener('abort', cancel, { once: true });
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			budget.take(value.byteLength);
			opts.onChunk?.();
			yield* parser.push(value);
		}
		yield* parser.end();
	} finally {
		// Reached on break, throw or return from the consumer: stop the download too.
		opts.signal?.removeEventListener('abort', cancel);
		cancel();
	}
}

/** Incremental parser, exported for tests; push bytes, collect finished events' data. */
export class SseParser {
	#decoder = new TextDecoder();
	#line = '';
	#data: string[] = [];
	/** The previous read ended with CR: a leading LF now belongs to that line end. */
	#afterCr = false;

	push(bytes: Uint8Array): string[] {
		return this.#feed(this.#decoder.decode(bytes, { stream: true }));
	}

	/** Flush at end of stream: servers that omit the final blank line still get their event out. */
	end(): string[] {
		const out = this.#feed(this.#decoder.decode());
		if (this.#line !== '') this.#takeLine(this.#line, out);
		this.#line = '';
		this.#dispatch(out);
		return out;
	}

	#feed(text: string): string[] {
		const out: string[] = [];
		let start = 0;
		for (let i = 0; i < text.length; i++) {
			const c = text[i];
			if (c === '\n' && this.#afterCr && i === start && this.#line === '') {
				this.#afterCr = false;
				start = i + 1;
				continue;
			}
			this.#afterCr = false;
			if (c !== '\n' && c !== '\r') continue;
			this.#takeLine(this.#line + text.slice(start, i), out);
			this.#line = '';
			if (c === '\r') {
				if (text[i + 1] === '\n') i++;
				else if (i + 1 === text.length) this.#afterCr = true;
			}
			start = i + 1;
		}
		this.#line += text.slice(start);
		return out;
	}

	#takeLine(line: string, out: string[]): void {
		if (line === '') return this.#dispatch(out);
		if (line.startsWith(':')) return;
		const colon = line.indexOf(':');
		const field = colon < 0 ? line : line.slice(0, colon);
		if (field !== 'data' && field !== 'error') return;
		let value = colon < 0 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		// Older llama-server builds send a failure mid-stream as `error: {…}` instead of
		// `data: {"error": {…}}`; give it the shape every other server uses.
		this.#data.push(field === 'error' ? `{"error":${asJson(value)}}` : value);
	}

	#dispatch(out: string[]): void {
		if (this.#data.length > 0) out.push(this.#data.join('\n'));
		this.#data = [];
	}
}

/** The value itself when it is JSON, else the value as a JSON string. */
function asJson(value: string): string {
	try {
		JSON.parse(value);
		return value;
	} catch {
		return JSON.stringify(value);
	}
}
