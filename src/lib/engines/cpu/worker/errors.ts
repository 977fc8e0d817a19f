/**
 * How the CPU worker words what wllama and llama.cpp throw: a dead wasm runtime, a prompt past the
 * context window, a model file that cannot be fetched or opened. Each becomes a typed EngineError
 * that names the file, so the page needs no advice table of its own for them.
 */
import { EngineError } from '../../../probe/engine.ts';
import { HUB_BLOCKED_RECOVERY, isHubBlocked } from '../../../errors/hubBlocked.ts';

/** Does this look like the wasm runtime dying (wllama's WllamaRuntimeError, an abort)? */
export function isRuntimeDeath(err: unknown): boolean {
	const e = err as { name?: unknown; message?: unknown } | null;
	const text = typeof e?.message === 'string' ? e.message : String(err);
	return e?.name === 'RuntimeError' || /invalid UTF-8 byte|\(ABORT\)|Aborted\(/.test(text);
}

/** llama.cpp's context overflow texts (server-context, as llama-server words them). */
const CONTEXT_OVERFLOW =
	/exceeds? the available context size|context size has been exceeded|exceed_context_size/i;

/** A failed generation: a prompt too long for n_ctx is the pipeline's per-item context error. */
export function toGenerationError(err: unknown): unknown {
	const text = err instanceof Error ? err.message : String(err);
	if (!CONTEXT_OVERFLOW.test(text)) return err;
	return new EngineError(
		'context_window',
		`The prompt is longer than the CPU engine's context window (${text}).`,
		'Lower max tokens or shorten the conversation; the item is skipped.'
	);
}

/** A failed open → a typed error that names the model file. */
export function toLoadError(err: unknown, url: string): unknown {
	if (err instanceof EngineError || (err as Error)?.name === 'AbortError') return err;
	const text = err instanceof Error ? err.message : String(err);
	if (/must ends? with "?\.gguf|Invalid model URL/i.test(text)) {
		return new EngineError(
			'bad_model',
			`${url} is not a GGUF file URL (it must end in .gguf).`,
			'Use the URL of the .gguf file itself, e.g. https://huggingface.co/<repo>/resolve/main/<file>.gguf.'
		);
	}
	if (/quota/i.test(text)) {
		return new EngineError(
			'quota_exceeded',
			`The browser ran out of storage space for ${url}.`,
			'Free space: delete cached models you no longer use, then retry.'
		);
	}
	if (/fetch|network|download|HTTP|status/i.test(text)) {
		const message = `Downloading ${url} failed (${text}).`;
		// A catalog model's URL was not typed by anyone: when the Hub cannot be reached at all, the
		// network is the cause, not the URL.
		return new EngineError(
			'network',
			message,
			isHubBlocked(message)
				? HUB_BLOCKED_RECOVERY
				: 'Check the URL and the connection (the host must allow cross-origin requests), then retry.',
			true
		);
	}
	return new EngineError(
		'bad_model',
		`The CPU engine could not open ${url} (${text}).`,
		'Check that the file is a GGUF model llama.cpp supports.'
	);
}
