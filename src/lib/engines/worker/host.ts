/**
 * The request host every engine worker runs: one request at a time in arrival order, every request
 * answered exactly once (a result or a wire error), aborts that drop a waiting request at once and
 * stop a running one through its signal. A worker's handler is a table of operations over it
 * (webgpu/worker/handler.ts, cpu/worker/handler.ts), as web-llm's handleTask(uuid, fn) is.
 */
import { AbortError } from '../../errors/appError.ts';
import type { LoadProgress } from '../../probe/engine.ts';
import { toWireError } from './errors.ts';
import { hasKindAndId, type AbortMessage, type Post, type WireRequest } from './protocol.ts';
import { SerialQueue } from './queue.ts';

/** One request while the worker serves it. */
export interface Job {
	readonly id: number;
	/** Fires when the page aborts this request: the operation stops its work on it. */
	readonly signal: AbortSignal;
	/** Report load progress for this request (dropped once it was aborted). */
	progress(progress: LoadProgress): void;
	/** Stream a generated piece of text for this request. */
	token(delta: string): void;
}

/**
 * How a request waits:
 * - `serial`: its turn in line, one at a time (it uses the model or changes the cache);
 * - `final`: its turn in line, and once running it cannot stop halfway: it finishes and reports
 *   its real outcome even if aborted (unload, cache delete);
 * - `now`: answered at once, even mid-generation (stats, cache reads).
 */
export type Line = 'serial' | 'final' | 'now';

export interface Operation<M> {
	/** `serial` when absent; a function when it depends on the message. */
	line?: Line | ((msg: M) => Line);
	/** Runs on arrival, before the request waits its turn (to say why it waits, say). */
	arrive?(msg: M, job: Job): void;
	/** The work; its value is the request's result. Throwing answers with the error. */
	run(msg: M, job: Job): Promise<unknown>;
}

/** One operation per request kind; `abort` is the host's own. */
export type Operations<Req extends WireRequest> = {
	[K in Exclude<Req['kind'], 'abort'>]: Operation<Extract<Req, { kind: K }>>;
};

export interface WorkerHost<K extends string> {
	/** The worker's message handler: routes a page message to its operation. */
	handle(data: unknown): void;
	/** The request being served, null when idle; `aborted` once the page cancelled it. */
	readonly running: { id: number; kind: K; aborted: boolean } | null;
	/** Requests waiting their turn. */
	readonly queued: number;
}

interface Entry {
	job: Job;
	ctrl: AbortController;
	final: boolean;
}

export function createWorkerHost<Req extends WireRequest>(
	operations: Operations<Req>,
	post: Post
): WorkerHost<Req['kind']> {
	type Kind = Req['kind'];
	const queue = new SerialQueue<Kind>();
	const entries = new Map<number, Entry>();
	const ops = operations as unknown as Record<string, Operation<Req>>;

	const fail = (id: number, err: unknown) => post({ kind: 'error', id, error: toWireError(err) });
	const answer = async (id: number, run: () => Promise<unknown>) => {
		try {
			post({ kind: 'result', id, value: await run() });
		} catch (err) {
			fail(id, err);
		}
	};

	function newEntry(id: number, final: boolean): Entry {
		const ctrl = new AbortController();
		const job: Job = {
			id,
			signal: ctrl.signal,
			progress: (progress) => {
				if (!ctrl.signal.aborted) post({ kind: 'progress', id, progress });
			},
			token: (delta) => post({ kind: 'token', id, delta })
		};
		return { job, ctrl, final };
	}

	function enqueue(msg: Req, op: Operation<Req>, entry: Entry): void {
		const { job } = entry;
		entries.set(msg.id, entry);
		queue.push({
			id: msg.id,
			kind: msg.kind,
			run: () =>
				answer(msg.id, async () => {
					try {
						const value = await op.run(msg, job);
						if (job.signal.aborted) throw new AbortError();
						return value;
					} catch (err) {
						throw job.signal.aborted ? new AbortError() : err;
					} finally {
						entries.delete(msg.id);
					}
				})
		});
	}

	/** Waiting → dropped and answered now; running → stopped, answered when it stops. */
	function abort(target: number): boolean {
		const entry = entries.get(target);
		if (!entry || entry.ctrl.signal.aborted) return false;
		if (queue.remove(target)) {
			entries.delete(target);
			entry.ctrl.abort();
			fail(target, new AbortError());
			return true;
		}
		if (entry.final) return false;
		entry.ctrl.abort();
		return true;
	}

	function handle(data: unknown): void {
		if (!hasKindAndId(data) || (data.kind !== 'abort' && !Object.hasOwn(ops, data.kind))) {
			const id = (data as { id?: unknown } | null)?.id;
			if (typeof id === 'number') fail(id, new Error('Unknown request kind.'));
			return;
		}
		if (data.kind === 'abort') {
			const { id, target } = data as AbortMessage;
			void answer(id, async () => ({ aborted: abort(target) }));
			return;
		}
		const msg = data as Req;
		const op = ops[msg.kind];
		const line = typeof op.line === 'function' ? op.line(msg) : (op.line ?? 'serial');
		const entry = newEntry(msg.id, line === 'final');
		op.arrive?.(msg, entry.job);
		if (line === 'now') void answer(msg.id, () => op.run(msg, entry.job));
		else enqueue(msg, op, entry);
	}

	return {
		handle,
		get running() {
			const running = queue.running;
			if (!running) return null;
			return { ...running, aborted: entries.get(running.id)?.ctrl.signal.aborted ?? false };
		},
		get queued() {
			return queue.length;
		}
	};
}
