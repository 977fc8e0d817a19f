/**
 * HTTP plumbing for OpenAI-compatible servers: URL normalisation, turning whatever went wrong
 * (a status, a dropped connection, an attempt's deadline from ../../net/deadline.ts) into an
 * EngineError a person can act on, and which of those are transient (the waiting itself is the
 * shared policy in ../../net/retry.ts).
 */
import { EngineError } from '../../probe/engine.ts';
import { AbortError } from '../../errors/appError.ts';
import { parseRetryAfter } from '../../net/retry.ts';
import type { IdleDeadline } from '../../net/deadline.ts';
import { BodyTooLargeError, readCappedText } from '../../net/cappedBody.ts';

/** Enough of a server's error text to explain it without flooding the UI. */
const MAX_ERROR_TEXT = 300;

/**
 * "http://host:8000", "host:8000/", ".../v1" all become ".../v1", the root every path hangs off.
 * @throws EngineError('network') when the text is not a usable http(s) URL.
 */
export function normalizeBaseUrl(raw: string): string {
	const trimmed = raw.trim();
	const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new EngineError(
			'network',
			`'${raw}' is not a server URL.`,
			'Use a URL like http://localhost:8000.'
		);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new EngineError(
			'network',
			`'${raw}' is not an http(s) URL.`,
			'Use a URL like http://localhost:8000.'
		);
	}
	const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
	return `${url.origin}${path}/v1`;
}

function inBrowser(): boolean {
	return 'document' in globalThis || 'WorkerGlobalScope' in globalThis;
}

/** Where a host lives, in the terms of Chrome's Local Network Access (IP literals only). */
export type AddressSpace = 'loopback' | 'local' | 'public';

export function addressSpace(hostname: string): AddressSpace {
	if (/^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(hostname)) return 'loopback';
	const ip = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(hostname);
	if (ip) {
		const [a, b] = [Number(ip[1]), Number(ip[2])];
		const rfc1918 = a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
		if (rfc1918 || (a === 169 && b === 254)) return 'local';
	}
	return 'public';
}

/**
 * Extra fetch options for the browser. Tagging a request to a private IP as `local` lets Chrome's
 * Local Network Access permission exempt it from mixed-content blocking, so an https page can
 * reach http://192.168.x.y once the user allows it. Other browsers and Node ignore the member.
 */
export function fetchHints(apiRoot: string): { targetAddressSpace?: 'local' } {
	if (!inBrowser()) return {};
	return addressSpace(new URL(apiRoot).hostname) === 'local' ? { targetAddressSpace: 'local' } : {};
}

/** What to try when the server cannot be reached; in a browser that is usually CORS. */
export function unreachableRecovery(apiRoot: string): string {
	if (!inBrowser()) return 'Check that the server is running and that the host and port are right.';
	const target = new URL(apiRoot);
	const space = addressSpace(target.hostname);
	const page = (globalThis as { location?: { protocol?: string } }).location;
	const tips = [
		'Check that the server is running, then that it allows requests from this page (CORS): ' +
			'vLLM --allowed-origins, Ollama OLLAMA_ORIGINS; see docs/servers.md.'
	];
	if (space !== 'public') {
		tips.push("Chrome may ask to let this site reach your local network: answer 'Allow'.");
	} else if (page?.protocol === 'https:' && target.protocol === 'http:') {
		tips.push(
			'This page is https, so the browser blocks plain-http servers on the internet: ' +
				'serve the API over https, or use the CLI.'
		);
	}
	return tips.join(' ');
}

/** `reading`: the connection dropped after the reply began, rather than never opening. */
export function networkError(apiRoot: string, err: unknown, reading = false): EngineError {
	const cause = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
	const detail = typeof cause === 'string' ? ` (${cause})` : '';
	if (reading) {
		return new EngineError(
			'network',
			`The connection to ${apiRoot} broke during the reply${detail}.`,
			'Retry; if it keeps happening, check the server logs.',
			true
		);
	}
	return new EngineError(
		'network',
		`Could not reach the server at ${apiRoot}${detail}.`,
		unreachableRecovery(apiRoot),
		true
	);
}

function field(value: unknown, key: string): unknown {
	return typeof value === 'object' && value !== null
		? (value as Record<string, unknown>)[key]
		: undefined;
}

/** The human part of an error body: OpenAI/vLLM `{error:{message}}`, `{error}`, `{message}`, `{detail}`. */
export function serverMessage(body: string): string {
	try {
		const json: unknown = JSON.parse(body);
		const err = field(json, 'error');
		const found = field(err, 'message') ?? err ?? field(json, 'message') ?? field(json, 'detail');
		if (typeof found === 'string') return found.slice(0, MAX_ERROR_TEXT);
		if (found !== undefined) return JSON.stringify(found).slice(0, MAX_ERROR_TEXT);
	} catch {
		// Not JSON: show the text itself.
	}
	return body.trim().slice(0, MAX_ERROR_TEXT);
}

/**
 * A prompt or generation that does not fit the model's context, as servers word it: OpenAI and vLLM
 * ("maximum context length"), llama-server's HTTP 400 `exceed_context_size_error` ("request (N
 * tokens) exceeds the available context size (M tokens)…") and its "Context size has been
 * exceeded." when the KV cache fills during generation (HTTP 500, or an error event mid-stream).
 */
const CONTEXT_TOO_LONG =
	/maximum context length|context (length|window)|too many tokens|exceeds? the (available )?(context|max)|context size has been exceeded|exceed_context_size_error/i;

/** True when a server's error text says the request did not fit the context window. */
export function isContextOverflow(text: string): boolean {
	return CONTEXT_TOO_LONG.test(text);
}

export function contextWindowError(message: string): EngineError {
	return new EngineError('context_window', message, 'Lower max_tokens or shorten the prompt.');
}

/** An HTTP failure; `retryAfterMs` is the server's Retry-After, when it sent one we could read. */
export class HttpError extends EngineError {
	readonly status: number;
	readonly retryAfterMs?: number;
	constructor(status: number, message: string, recovery: string, retryAfterMs?: number) {
		super('http', message, recovery, status === 429 || status >= 500);
		this.name = 'HttpError';
		this.status = status;
		this.retryAfterMs = retryAfterMs;
	}
}

/**
 * Only transient failures. A timeout is retried only when it is marked retryable, which the
 * engine does for a stream that went silent mid-reply; a server that never answers is not retried
 * (a stuck server would otherwise stall a run for minutes before saying so).
 */
export function isRetryable(err: unknown): err is EngineError {
	return (
		err instanceof EngineError &&
		err.retryable &&
		(err.code === 'http' || err.code === 'network' || err.code === 'timeout')
	);
}

/** The shared loop's classifier for engine errors. */
export function classifyEngineError(err: unknown): false | { retryAfterMs?: number } {
	if (!isRetryable(err)) return false;
	return { retryAfterMs: err instanceof HttpError ? err.retryAfterMs : undefined };
}

function recoveryFor(status: number): string {
	if (status === 401 || status === 403) return 'Check the API key.';
	if (status === 404)
		return 'Check the server URL (host and port, optionally ending in /v1) and the model name.';
	if (status === 429) return 'The server is busy or rate-limiting: wait, or lower the concurrency.';
	if (status >= 500) return 'The server failed: check its logs, then retry.';
	return "The server rejected the request; the server's message says why.";
}

/** A non-2xx response as an error; context-window overflows get their own code. */
/** An error page is read this far at most: only its first MAX_ERROR_TEXT characters are shown. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

export async function httpError(res: Response, apiRoot: string): Promise<EngineError> {
	// A long error page is still worth its first words: read what fits, drop the rest.
	const text = await readCappedText(res, ERROR_BODY_MAX_BYTES, { truncate: true }).catch(() => '');
	const said = serverMessage(text) || res.statusText;
	const message = `The server at ${apiRoot} answered ${res.status}${said ? `: ${said}` : '.'}`;
	// Any status: llama-server sends 400 for a prompt too long, 500 when generation overflows.
	if (
		(res.status === 400 || res.status >= 500) &&
		(isContextOverflow(said) || isContextOverflow(text))
	) {
		return contextWindowError(message);
	}
	const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
	return new HttpError(res.status, message, recoveryFor(res.status), retryAfter);
}

/** A 200 whose body is not JSON: a proxy page, a wrong URL, a truncated reply. */
export function notJsonError(apiRoot: string, body: string): EngineError {
	return unexpectedReply(apiRoot, 'not valid JSON', body);
}

/** Valid JSON without the fields an OpenAI-compatible server sends. */
export function notOpenAIError(apiRoot: string, body: string): EngineError {
	return unexpectedReply(apiRoot, "not in OpenAI's format", body);
}

function unexpectedReply(apiRoot: string, what: string, body: string): EngineError {
	const snippet = body.trim().slice(0, 120);
	return new EngineError(
		'http',
		`The server at ${apiRoot} sent a reply that is ${what}: ${snippet || '(empty)'}`,
		'Check that the URL points at an OpenAI-compatible API (it usually ends in /v1).'
	);
}

/** How a person raises the engine's limits (the CLI's flags); the app has no such setting. */
export interface LimitHints {
	/** Raises the time one request may take in all. */
	requestTimeout?: string;
	/** Raises the size a reply may have. */
	replyBytes?: string;
}

const raise = (hint: string | undefined) => (hint ? `, or raise the limit with ${hint}` : '');

/** A reply past its byte ceiling (net/cappedBody.ts): named with the server, the limit and the flag. */
export function replyTooLargeError(
	apiRoot: string,
	what: string,
	maxBytes: number,
	hints: LimitHints = {}
): EngineError {
	const mb = maxBytes / 1024 ** 2;
	return new EngineError(
		'http',
		`The server at ${apiRoot} sent more than ${mb >= 10 ? mb.toFixed(0) : mb.toFixed(1)} MB for ${what}, the limit for it; the reply was stopped.`,
		`The server may be ignoring max_tokens or sending without end: check it${raise(hints.replyBytes)}.`
	);
}

/**
 * Whatever a cancelled or failed attempt threw, as the error the caller should see: silence past
 * the deadline is a timeout, and so is a request past its total time; the caller's abort an
 * AbortError; a body past its ceiling says so; anything else a network failure.
 */
export function attemptError(
	deadline: IdleDeadline,
	err: unknown,
	apiRoot: string,
	reading = false,
	limits: { what?: string; hints?: LimitHints } = {}
): Error {
	if (err instanceof BodyTooLargeError)
		return replyTooLargeError(apiRoot, limits.what ?? 'one reply', err.maxBytes, limits.hints);
	if (deadline.overTotal) {
		const seconds = Math.round((deadline.totalMs ?? 0) / 1000);
		// Not retried: a server that trickles forever would do it again.
		return new EngineError(
			'timeout',
			`The server at ${apiRoot} did not finish ${limits.what ?? 'its reply'} within ${seconds} s, the limit for one request.`,
			`The server may be stuck or sending without end; if it is only slow, check its load${raise(limits.hints?.requestTimeout)}.`
		);
	}
	if (deadline.timedOut) {
		const seconds = Math.round(deadline.timeoutMs / 1000);
		// A reply that went silent half-way is retried (like a dropped connection); a server that
		// never answers at all is not, so a stuck server is reported within one timeout.
		return new EngineError(
			'timeout',
			reading
				? `The server at ${apiRoot} stopped sending for ${seconds} s in the middle of a reply.`
				: `The server at ${apiRoot} sent nothing for ${seconds} s.`,
			'The server may be overloaded or stuck: check its logs, or raise the timeout.',
			reading
		);
	}
	if (deadline.callerAborted) return new AbortError();
	if (err instanceof EngineError) return err;
	return networkError(apiRoot, err, reading);
}
