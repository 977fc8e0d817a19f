/**
 * A run's calls to its engines: bounded in flight (one pool when generator and judge share a
 * device), held while the event consumer is behind, refused once the run stops; streamed tokens
 * and retries become events.
 */
import type { Channel } from './async.ts';
import { Semaphore } from './async.ts';
import type { ProbeContext } from './context.ts';
import type { CompletionRequest, CompletionResult } from './engine.ts';
import type { ProbeEvent, Stage } from './events.ts';
import type { FatalLatch } from './failures.ts';
import { judgeRequest, judgeWithRetries } from './judge.ts';
import { groundingOf, parseReferenceOutput, referenceRequest } from './referenceJudge.ts';
import type { ProbeConfig, ProbeRecord, ReferenceGrounding, Usage } from './types.ts';

/** What a stage asks of the generator; the model, top_p and signal are the run's. */
export type GenerateRequest = Pick<
	CompletionRequest,
	'prompt' | 'temperature' | 'seed' | 'max_tokens' | 'stop'
>;

export class EngineCalls {
	readonly #ctx: Pick<ProbeContext, 'engine' | 'judge' | 'concurrency'>;
	readonly #c: ProbeConfig;
	readonly #events: Channel<ProbeEvent>;
	readonly #signal: AbortSignal;
	readonly #fatal: FatalLatch;
	readonly #generator: Semaphore;
	readonly #judge: Semaphore;

	constructor(
		ctx: Pick<ProbeContext, 'engine' | 'judge' | 'concurrency'>,
		c: ProbeConfig,
		run: { events: Channel<ProbeEvent>; signal: AbortSignal; fatal: FatalLatch }
	) {
		this.#ctx = ctx;
		this.#c = c;
		this.#events = run.events;
		this.#signal = run.signal;
		this.#fatal = run.fatal;
		this.#generator = new Semaphore(this.concurrency);
		this.#judge =
			ctx.judge === ctx.engine
				? this.#generator
				: new Semaphore(ctx.concurrency ?? ctx.judge.capabilities().max_concurrency);
	}

	/** Requests in flight; defaults to the engine's own max_concurrency (web-llm: 1). */
	get concurrency(): number {
		return this.#ctx.concurrency ?? this.#ctx.engine.capabilities().max_concurrency;
	}

	/**
	 * Tasks under way around those requests: two per request, so a finished task's write commits
	 * while the next request runs. With one, a tab's slot sat idle through every IndexedDB commit
	 * (tens of ms, against a 60 ms request); the requests stay bounded by the pools below.
	 */
	get tasks(): number {
		return 2 * this.concurrency;
	}

	complete(
		stage: Stage,
		itemId: string,
		key: string | undefined,
		req: GenerateRequest
	): Promise<CompletionResult> {
		return this.#gated(this.#generator, () =>
			this.#ctx.engine.complete({
				...req,
				model: this.#c.generator.id,
				top_p: this.#c.top_p,
				signal: this.#signal,
				onToken: (delta) =>
					this.#events.push({ type: 'token', stage, item_id: itemId, key, delta }),
				onRetry: (n) => this.#events.push({ type: 'retry', stage, item_id: itemId, key, ...n })
			})
		);
	}

	/** The judge's verdict on a record's turn, asked again (up to its limit) until a reply parses. */
	async judge(
		record: ProbeRecord
	): Promise<{ verdict: Awaited<ReturnType<typeof judgeWithRetries>>; usage?: Usage }> {
		let usage = record.judge_usage;
		const verdict = await judgeWithRetries(async (attempt) => {
			const run = { model: this.#c.judge.id, seed: this.#c.seed, attempt, signal: this.#signal };
			const res = await this.#gated(this.#judge, () =>
				this.#ctx.judge.chatJson(judgeRequest(record, run))
			);
			usage = res.usage;
			return res.text;
		});
		return { verdict, usage };
	}

	/**
	 * The judge's comparison of a record's turn with its reference turn: asked once, greedy. A reply
	 * that names no turn is kept raw with a null verdict (asking again would only sample until some
	 * answer came out); a call that throws leaves the comparison pending.
	 */
	async compare(
		record: ProbeRecord & { reference_turn: string }
	): Promise<{ grounding: ReferenceGrounding | null; raw: string }> {
		const run = { model: this.#c.judge.id, seed: this.#c.seed, signal: this.#signal };
		const res = await this.#gated(this.#judge, () =>
			this.#ctx.judge.chatJson(referenceRequest(record, run))
		);
		return { grounding: groundingOf(parseReferenceOutput(res.text), record), raw: res.text };
	}

	#gated<T>(pool: Semaphore, call: () => Promise<T>): Promise<T> {
		return pool.run(async () => {
			await this.#events.drained();
			this.#fatal.throwIfStopped(this.#signal);
			return call();
		});
	}
}
