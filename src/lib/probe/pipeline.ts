/**
 * The probe as an async generator of typed events:
 * answer (once per item) → user turn per condition → label (rules and/or judge) → record stored.
 * The browser views and the CLI consume the same events.
 */
import { hashSeed } from './random.ts';
import { Channel, Semaphore, settleAll } from './async.ts';
import type { ProbeContext } from './context.ts';
import type { Engine } from './engine.ts';
import { describeFailure, FatalLatch, isAbort, isPerItem, isResumable } from './failures.ts';
import { mergeTokens, type ProbeEvent, type Stage } from './events.ts';
import { EngineCalls, type GenerateRequest } from './requests.ts';
import { judgePromptHash } from './judge.ts';
import { planWork, recordKey, userTurnSeed, type Condition } from './plan.ts';
import { JudgeStep } from './judgeStep.ts';
import {
	answerRecord,
	fixedAnswerRecord,
	labelledByRules,
	probeInput,
	renderOptions,
	runManifest,
	userTurnRecord,
	type ProbeInput
} from './records.ts';
import { RunTally } from './progress.ts';
import { classifyRules } from './rules.ts';
import { keptGeneration } from './markup.ts';
import {
	assistantPrompt,
	answerStopSequences,
	stopSequences,
	type ProbeOptions
} from './template.ts';
import { taskConversation } from './taskPrompt.ts';
import type {
	AnswerRecord,
	DatasetItem,
	Perturbation,
	ProbeConfig,
	ProbeRecord,
	RunManifest
} from './types.ts';

export type { ProbeContext };

export async function* runProbe(
	config: ProbeConfig,
	ctx: ProbeContext
): AsyncGenerator<ProbeEvent> {
	const channel = new Channel<ProbeEvent>(mergeTokens);
	const stop = new AbortController();
	const onOuterAbort = () => stop.abort();
	ctx.signal?.addEventListener('abort', onOuterAbort);
	if (ctx.signal?.aborted) stop.abort();
	const run = new ProbeRun(config, ctx, stop.signal, channel);
	const finished = run.execute().finally(() => channel.close());
	try {
		yield* channel.drain();
	} finally {
		// A consumer that stops iterating early also stops the work behind it.
		stop.abort();
		ctx.signal?.removeEventListener('abort', onOuterAbort);
		await finished;
	}
}

class ProbeRun {
	readonly #c: ProbeConfig;
	readonly #ctx: ProbeContext;
	readonly #signal: AbortSignal;
	readonly #events: Channel<ProbeEvent>;
	readonly #now: () => number;
	readonly #stamp: () => string;
	readonly #render: ProbeOptions;
	/** Stops for a generated user turn, and for an answer (gpt-oss answers run past "<|end|>"). */
	readonly #stop: string[];
	readonly #answerStop: string[];
	readonly #calls: EngineCalls;
	readonly #judge: JudgeStep;
	/** Whole user-turn tasks (generate, label, store) under way: EngineCalls.tasks of them. */
	readonly #tasks: Semaphore;
	#phased = false;
	#started = 0;
	readonly #tally = new RunTally();
	readonly #fatal = new FatalLatch();

	constructor(c: ProbeConfig, ctx: ProbeContext, signal: AbortSignal, events: Channel<ProbeEvent>) {
		this.#c = c;
		this.#ctx = ctx;
		this.#signal = signal;
		this.#events = events;
		this.#now = ctx.now ?? (() => performance.now());
		this.#stamp = ctx.timestamp ?? (() => new Date().toISOString());
		this.#render = renderOptions(c);
		this.#stop = stopSequences(ctx.template);
		this.#answerStop = answerStopSequences(ctx.template);
		this.#calls = new EngineCalls(ctx, c, { events, signal, fatal: this.#fatal });
		this.#tasks = new Semaphore(this.#calls.tasks);
		this.#judge = new JudgeStep(this.#calls, c.judge_mode, {
			emit: (e) => this.#emit(e),
			onError: (err, r) => this.#onTaskError(err, 'judge', r.item_id, r.key)
		});
	}

	/** Never rejects: failures become `error` events, and the manifest says where the run stands. */
	async execute(): Promise<void> {
		this.#started = this.#now();
		const c = this.#c;
		const needsJudge = c.judge_mode !== 'rules';
		const shared = this.#ctx.judge === this.#ctx.engine;
		const pair = [...new Set([c.generator.id, c.judge.id])];
		this.#phased =
			needsJudge && shared && pair.length > 1 && !this.#ctx.engine.capabilities().can_co_load(pair);
		this.#judge.promptHash = needsJudge ? await judgePromptHash() : '';
		const store = this.#ctx.store;
		const existing = store.getResumeRecords
			? await store.getResumeRecords(c.run_id)
			: new Map((await store.getRecords(c.run_id)).map((r) => [r.key, r]));
		const plan = planWork(c, existing);
		this.#tally.begin(plan.total, this.#phased, { labeled: plan.labeled, waiting: plan.unlabeled });
		this.#emit({
			type: 'plan',
			items: c.items.length,
			conditions: plan.conditions.length,
			total: plan.total,
			already_done: plan.labeled,
			phased: this.#phased,
			concurrency: this.#calls.concurrency
		});
		await this.#writeManifest('running');
		try {
			if (plan.missing.size > 0) {
				this.#emit({ type: 'phase', phase: 'generate' });
				if (needsJudge && shared && !this.#phased) await this.#load(this.#ctx.engine, pair);
				else await this.#load(this.#ctx.engine, [c.generator.id]);
				if (needsJudge && !shared) await this.#load(this.#ctx.judge, [c.judge.id]);
				const items = new Semaphore(this.#calls.concurrency);
				const pending: ProbeRecord[] = [...plan.unlabeled];
				await settleAll(
					c.items
						.filter((item) => plan.missing.has(item.id))
						.map((item) =>
							items.run(() => this.#item(item, plan.missing.get(item.id) ?? [], pending))
						)
				);
				this.#fatal.throwIfStopped(this.#signal);
				plan.unlabeled = pending;
			}
			if (needsJudge && plan.unlabeled.length > 0) {
				this.#emit({ type: 'phase', phase: 'judge' });
				if (this.#phased || plan.missing.size === 0) {
					// Phased: the generator goes first. Otherwise (a resume with only judging left) a load
					// of the judge alone frees the rest and keeps a judge still resident from before.
					if (shared && this.#phased) await this.#ctx.engine.unload();
					await this.#load(this.#ctx.judge, [c.judge.id]);
				}
				await settleAll(plan.unlabeled.map((r) => this.#tasks.run(() => this.#judgeAndStore(r))));
				this.#fatal.throwIfStopped(this.#signal);
			}
			await this.#writeManifest('done');
			this.#finish(false);
		} catch (thrown) {
			// Tasks failing together each throw; the first to fail (the cause) is the one to report.
			const err = this.#fatal.or(thrown);
			const aborted = isAbort(err) || (this.#signal.aborted && !this.#fatal.held);
			if (!aborted) this.#emit(this.#fatal.report(err));
			const status = aborted || isResumable(err) ? 'paused' : 'failed';
			try {
				await this.#writeManifest(status);
			} catch {
				// Storage full: one more try (a smaller write may fit); the app also treats a
				// 'running' run that no tab holds as stopped.
				await this.#writeManifest(status).catch(() => {});
			}
			this.#finish(aborted);
		}
	}

	#emit(e: ProbeEvent): void {
		this.#events.push(e);
	}

	async #load(engine: Engine, models: string[]): Promise<void> {
		const t0 = this.#now();
		this.#emit({ type: 'loading', models });
		try {
			await engine.load(models, {
				signal: this.#signal,
				onProgress: (progress) => this.#emit({ type: 'loading', models, progress, at: this.#now() })
			});
		} catch (err) {
			this.#fatal.hold(err);
			throw err;
		}
		this.#emit({ type: 'loaded', models, ms: this.#now() - t0 });
	}

	/** One item: its answer (generated once, or read back on resume), then every missing condition. */
	async #item(item: DatasetItem, conditions: Condition[], unlabeled: ProbeRecord[]): Promise<void> {
		if (this.#signal.aborted) return;
		let answer: AnswerRecord;
		try {
			answer = await this.#answer(item);
		} catch (err) {
			this.#onTaskError(err, 'answer', item.id);
			return;
		}
		// Every temperature and sample of a perturbation sees the same answer, so the same prompt.
		const probes = new Map<Perturbation, ProbeInput>();
		const probeFor = (p: Perturbation): ProbeInput => {
			let input = probes.get(p);
			if (input === undefined) {
				input = probeInput(this.#c, this.#ctx.template, this.#render, item, answer, p);
				probes.set(p, input);
			}
			return input;
		};
		await settleAll(
			conditions.map((cond) =>
				this.#tasks.run(async () => {
					try {
						const record = await this.#userTurn(item, answer, cond, probeFor(cond.perturbation));
						if (this.#judge.awaits(record)) unlabeled.push(record);
					} catch (err) {
						this.#onTaskError(err, 'user_turn', item.id, recordKey(item.id, cond));
					}
				})
			)
		);
	}

	async #answer(item: DatasetItem): Promise<AnswerRecord> {
		const c = this.#c;
		const cached = await this.#ctx.store.getAnswer(c.run_id, item.id);
		if (cached) {
			this.#emit({ type: 'answer', answer: cached, cached: true });
			return cached;
		}
		const conversation = taskConversation(item, c.task_prompt);
		const prompt = assistantPrompt(this.#ctx.template, conversation, this.#render);
		const seed = hashSeed(c.seed, item.id, 'answer');
		// The conversation's own reply (fixed_answer) stands in for the model's: no engine call.
		const answer =
			item.fixed_answer === undefined
				? await this.#generateAnswer(item, prompt, seed)
				: fixedAnswerRecord({ run_id: c.run_id, item, prompt, seed, created_at: this.#stamp() });
		await this.#ctx.store.putAnswer(answer);
		this.#emit({ type: 'answer', answer, cached: false });
		return answer;
	}

	async #generateAnswer(item: DatasetItem, prompt: string, seed: number): Promise<AnswerRecord> {
		this.#emit({ type: 'stage', stage: 'answer', item_id: item.id });
		const { run_id, answer_temperature: temperature, answer_max_tokens: max_tokens } = this.#c;
		const req = { prompt, temperature, seed, max_tokens, stop: this.#answerStop };
		const result = await this.#generate('answer', item.id, undefined, req);
		const { nlp } = this.#ctx;
		return answerRecord({ run_id, item, prompt, seed, result, created_at: this.#stamp(), nlp });
	}

	async #userTurn(
		item: DatasetItem,
		answer: AnswerRecord,
		cond: Condition,
		input: ProbeInput
	): Promise<ProbeRecord> {
		const c = this.#c;
		const key = recordKey(item.id, cond);
		const seed = userTurnSeed(c.seed, item.id, cond);
		this.#emit({ type: 'stage', stage: 'user_turn', item_id: item.id, key });
		const res = await this.#generate('user_turn', item.id, key, {
			prompt: input.prompt,
			temperature: cond.temperature,
			seed,
			max_tokens: c.max_tokens,
			stop: this.#stop
		});
		const rule = classifyRules({
			question: item.prompt,
			answer: input.perturbed,
			user_turn: res.text,
			stop_tokens: this.#stop
		});
		this.#emit({
			type: 'user_turn',
			key,
			item_id: item.id,
			text: res.text,
			rule_label: rule.label,
			rule_reason: rule.reason
		});
		let record = userTurnRecord({
			run_id: c.run_id,
			item,
			cond,
			seed,
			answer,
			input,
			result: res,
			rule,
			created_at: this.#stamp()
		});
		const rulesDecide =
			c.judge_mode === 'rules' || (c.judge_mode === 'hybrid' && rule.label !== 'undecided');
		if (rulesDecide) {
			const labelled = labelledByRules(record);
			record = labelled;
			this.#emit({
				type: 'judged',
				key,
				label: labelled.label,
				source: 'rules',
				rationale: rule.reason
			});
			if (!this.#phased) record = await this.#judge.compareIfDue(record);
		} else if (!this.#phased) {
			// Stored (label pending) while the judge answers, so a crash redoes only the judge call.
			// The write overlaps the judge request rather than delaying it, and lands before the
			// labelled one below.
			const pending = this.#store(record, false);
			const judging = this.#judge.label(record);
			// Handled below once the write is done; until then a rejection must not count as unhandled.
			judging.catch(() => {});
			await pending;
			try {
				record = await judging;
			} catch (err) {
				// A per-item judge failure leaves the record pending: the judge phase tries it again.
				this.#onTaskError(err, 'judge', item.id, key);
				return record;
			}
			record = await this.#judge.compareIfDue(record);
		}
		await this.#store(record);
		return record;
	}

	async #judgeAndStore(record: ProbeRecord): Promise<void> {
		try {
			const labelled = record.label === null ? await this.#judge.label(record) : record;
			await this.#store(await this.#judge.compareIfDue(labelled));
		} catch (err) {
			this.#onTaskError(err, 'judge', record.item_id, record.key);
		}
	}

	async #generate(stage: Stage, itemId: string, key: string | undefined, req: GenerateRequest) {
		const res = await this.#calls.complete(stage, itemId, key, req);
		this.#tally.addTokens(res.usage.completion_tokens);
		return keptGeneration(this.#ctx.template, this.#c.user_header, stage, res);
	}

	/** `unit`: this store finishes a unit of work (false for the pending copy stored before judging). */
	async #store(record: ProbeRecord, unit = true): Promise<void> {
		await this.#ctx.store.putRecord(record);
		this.#emit({ type: 'record', record });
		this.#tally.stored(record, unit);
		this.#emit(this.#tally.progress(this.#now() - this.#started));
	}

	#onTaskError(err: unknown, stage: Stage, itemId: string, key?: string): void {
		if (isAbort(err) || this.#signal.aborted) return;
		if (isPerItem(err)) {
			const failure = describeFailure(err);
			this.#emit({ type: 'error', stage, item_id: itemId, key, ...failure, fatal: false });
			return;
		}
		this.#fatal.hold(err, { stage, item_id: itemId, key });
		// One fatal failure stops every other task; execute() reports it once.
		throw err;
	}

	#finish(aborted: boolean): void {
		this.#emit({
			type: 'done',
			records: this.#tally.done,
			elapsed_ms: this.#now() - this.#started,
			aborted
		});
	}

	async #writeManifest(status: RunManifest['status']): Promise<void> {
		const previous = await this.#ctx.store.getManifest(this.#c.run_id);
		const manifest = runManifest(this.#c, {
			engine: this.#ctx.engine.name,
			template_sha256: this.#ctx.template.sha256,
			judge_prompt_hash: this.#judge.promptHash || (await judgePromptHash()),
			status,
			now: this.#stamp,
			app_version: this.#ctx.appVersion,
			previous,
			extras: this.#ctx.manifestExtras
		});
		await this.#ctx.store.putManifest(manifest);
	}
}
