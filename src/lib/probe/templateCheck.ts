/**
 * Checking a chat template where it can be stopped. The in-render limits (renderLimits.ts) stop a
 * template that loops or grows, but only when the interpreter reaches one of its checks, and a
 * render on the app's own thread blocks it meanwhile: a frozen tab, a CLI deaf to Ctrl-C. So the
 * shells check a loaded template in a worker (a Web Worker, a worker thread) that is terminated at
 * the time limit or on cancel; the renders that follow on the main thread are then of a template
 * known to render the same conversations within the limits. This module is the pure protocol: the
 * worker's side (`checkReply`) and the caller's (`checkIsolated`), with the worker abstracted.
 */
import { AbortError } from '../errors/appError.ts';
import { RENDER_TIME_LIMIT_MS, renderTimeLimitError, withRenderDeadline } from './renderLimits.ts';
import { thinkingDefault, validateTemplate, type ChatTemplate } from './template.ts';
import type { CheckTemplate } from './templateChecker.ts';
import { TemplateError } from './templateError.ts';

/** What a check worker answers: `null` when the template passed. */
export type CheckReply = { error: null } | { error: { name: string; message: string } };

/** The worker says so once it has loaded; the time limit starts with the request after that. */
export const WORKER_READY = 'ready';

/** A worker as the caller sees it, whatever the platform's API. */
export interface CheckWorker {
	post(t: ChatTemplate): void;
	/** `fn` gets WORKER_READY once, then the CheckReply. */
	onMessage(fn: (msg: unknown) => void): void;
	/** The worker failed to load or crashed (a fatal out-of-memory ends it this way too). */
	onError(fn: (err: unknown) => void): void;
	terminate(): void;
}

/**
 * The worker's answer about `t`: the renders a template check does (the probe exchange, the
 * thinking flag), within the in-render limits, as one CheckReply.
 */
export function checkReply(t: ChatTemplate): CheckReply {
	try {
		withRenderDeadline(() => {
			validateTemplate(t);
			thinkingDefault(t);
		});
		return { error: null };
	} catch (err) {
		const e = err instanceof Error ? err : new Error(String(err));
		return { error: { name: e.name, message: e.message } };
	}
}

/** Room past the time limit for posting the answer back, before the worker counts as stuck. */
export const REPLY_GRACE_MS = 500;

/**
 * Check `t` in a worker from `spawn`, terminated when it has not answered within the render time
 * limit (a render that never reaches an in-render check) or when `signal` aborts.
 * @throws TemplateError naming the limits, or the check's own; AbortError when `signal` aborts.
 */
export function checkIsolated(
	t: ChatTemplate,
	spawn: () => CheckWorker,
	signal?: AbortSignal
): ReturnType<CheckTemplate> {
	if (signal?.aborted) return Promise.reject(new AbortError());
	return new Promise<void>((resolve, reject) => {
		const worker = spawn();
		let timer: ReturnType<typeof setTimeout> | undefined;
		const settle = (err: Error | null) => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onAbort);
			worker.terminate();
			if (err) reject(err);
			else resolve();
		};
		const onAbort = () => settle(new AbortError());
		signal?.addEventListener('abort', onAbort, { once: true });
		worker.onError((err) =>
			settle(
				new TemplateError(
					`Chat template check failed: ${err instanceof Error ? err.message : String(err)}`,
					{ cause: err }
				)
			)
		);
		worker.onMessage((msg) => {
			if (msg === WORKER_READY) {
				timer = setTimeout(
					() => settle(renderTimeLimitError()),
					RENDER_TIME_LIMIT_MS + REPLY_GRACE_MS
				);
				worker.post(t);
				return;
			}
			const reply = msg as CheckReply;
			if (reply.error === null) return settle(null);
			const err = new TemplateError(reply.error.message);
			err.name = reply.error.name;
			settle(err);
		});
	});
}
