/**
 * The one fetch type every client takes (dataset loads, NLP data, chat templates): the browser's
 * and Node's global `fetch` satisfy it, and a test passes a fake that implements only what the
 * client reads. `R` narrows the response to that slice.
 */

/** What a request carries; the global fetch's RequestInit narrowed to what the clients send. */
export interface FetchInit {
	signal?: AbortSignal;
	headers?: Record<string, string>;
}

/** The slice of a Response every client reads; the global Response satisfies it. */
export interface ResponseLike {
	ok: boolean;
	status: number;
	text(): Promise<string>;
	/** Optional so minimal fakes work; when present, Retry-After is honoured. */
	headers?: { get(name: string): string | null };
}

/** A response whose body is read as JSON (the Hugging Face datasets server). */
export interface JsonResponseLike extends ResponseLike {
	json(): Promise<unknown>;
}

/** A response read as bytes, with its length for progress (NLTK's zips, syllapy's word list). */
export interface BytesResponseLike extends ResponseLike {
	headers: { get(name: string): string | null };
	/** Read chunk by chunk when present (progress); else arrayBuffer(). */
	body?: ReadableStream<Uint8Array> | null;
	arrayBuffer(): Promise<ArrayBuffer>;
}

export type FetchLike<R extends ResponseLike = ResponseLike> = (
	url: string,
	init?: FetchInit
) => Promise<R>;
