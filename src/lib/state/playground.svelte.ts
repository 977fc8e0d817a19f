/**
 * The playground: a conversation typed by hand, rendered with the model's own template, then the
 * same model continues as the user N times. Each turn streams and is labelled live by the run's
 * own pipeline (runProbe over a store in memory), with a run's settings: the same token limits,
 * thinking split, prompt, rules, judge request and seeds, so a turn is labelled as a run would.
 */
import { errorText } from '../errors/describe.ts';
import { CONVERSATION_ITEM_ID, conversationItem, typedAnswer } from '../probe/conversation.ts';
import type { Engine, LoadProgress } from '../probe/engine.ts';
import type { ProbeEvent } from '../probe/events.ts';
import { EXAMPLE_CONVERSATION } from '../probe/labels.ts';
import { runProbe } from '../probe/pipeline.ts';
import { planConditions, recordKey, userTurnSeed, type Condition } from '../probe/plan.ts';
import { MemoryStore } from '../probe/store.ts';
import { thinkingDefault, type ChatTemplate } from '../probe/template.ts';
import type { AnswerRecord, ChatMessage, Label, ProbeConfig, RuleLabel } from '../probe/types.ts';
import { conversationConfig, shownProbe } from '../setup/conversationRun.ts';
import type { RunFormValues } from '../setup/runForm.ts';

export interface PlaygroundTurn {
	role: 'user' | 'assistant';
	content: string;
}

export interface PlaygroundSample {
	index: number;
	seed: number;
	text: string;
	streaming: boolean;
	rule_label?: RuleLabel;
	rule_reason?: string;
	judging: boolean;
	label?: Label;
	source?: 'rules' | 'judge';
	reason?: string;
}

export interface PlaygroundDeps {
	engine: Engine;
	model: string;
	/** Loaded inside generate(), so a missing template is reported like any other failure. */
	template: () => Promise<ChatTemplate>;
	/** Ask the LLM judge about turns the rules leave undecided. */
	judge?: { engine: Engine; model: string };
	thinking?: boolean;
	/** The token limits a run would use (set-up's form); a new run's defaults when absent. */
	limits?: Pick<RunFormValues, 'max_tokens' | 'answer_max_tokens' | 'answer_tokens_auto'>;
	/** The generator's context window, where known: the answer limit is sized from it as in a run. */
	contextWindow?: (signal: AbortSignal) => Promise<number | undefined>;
}

export type PlaygroundPhase =
	'idle' | 'loading' | 'answering' | 'generating' | 'done' | 'stopped' | 'failed';

export const MAX_SAMPLES = 10;
/** The playground's one-off run: never stored, never listed. */
const PLAYGROUND_RUN_ID = 'playground';

export class Playground {
	turns = $state<PlaygroundTurn[]>([
		{ role: 'user', content: EXAMPLE_CONVERSATION.question },
		{ role: 'assistant', content: EXAMPLE_CONVERSATION.answer }
	]);
	n = $state(3);
	temperature = $state(1);
	seed = $state(0);
	useJudge = $state(false);
	/** As chosen; null: the template's own default. */
	thinking = $state<boolean | null>(null);
	#templateThinking = $state<boolean | null>(null);
	#samples = $state.raw<PlaygroundSample[]>([]);
	#prompt = $state('');
	#header = $state('');
	#phase = $state<PlaygroundPhase>('idle');
	#error = $state<string | null>(null);
	#load = $state.raw<LoadProgress | null>(null);
	#abort: AbortController | null = null;

	get samples(): PlaygroundSample[] {
		return this.#samples;
	}
	/** The exact text sent to the model for each user turn. */
	get prompt(): string {
		return this.#prompt;
	}
	/** The bare user-role header the prompt ends with. */
	get header(): string {
		return this.#header;
	}
	get phase(): PlaygroundPhase {
		return this.#phase;
	}
	get busy(): boolean {
		return this.#phase === 'loading' || this.#phase === 'answering' || this.#phase === 'generating';
	}
	get error(): string | null {
		return this.#error;
	}
	get load(): LoadProgress | null {
		return this.#load;
	}
	/** The last template's enable_thinking default; null before any, or when it ignores the flag. */
	get templateThinking(): boolean | null {
		return this.#templateThinking;
	}

	addTurn(): void {
		const last = this.turns.at(-1)?.role ?? 'assistant';
		this.turns.push({ role: last === 'user' ? 'assistant' : 'user', content: '' });
	}

	removeTurn(i: number): void {
		this.turns.splice(i, 1);
	}

	/** What blocks Generate, in words. */
	problems(): string[] {
		const out: string[] = [];
		if (this.turns.length === 0 || this.turns.every((t) => t.content.trim() === '')) {
			out.push('Type at least one user message.');
		}
		if (this.turns[0]?.role !== 'user') out.push('The conversation must start with a user turn.');
		if (!Number.isInteger(this.n) || this.n < 1 || this.n > MAX_SAMPLES) {
			out.push(`Generate between 1 and ${MAX_SAMPLES} user turns.`);
		}
		if (!(this.temperature >= 0 && this.temperature <= 2)) {
			out.push('The temperature must be between 0 and 2.');
		}
		return out;
	}

	stop(): void {
		this.#abort?.abort();
	}

	/**
	 * Generate N user turns (after the assistant answer, when the conversation ends with the user).
	 * Errors end up in `error`; never rejects.
	 */
	async generate(deps: PlaygroundDeps): Promise<void> {
		if (this.busy) return;
		const abort = new AbortController();
		this.#abort = abort;
		this.#error = null;
		this.#samples = [];
		this.#prompt = '';
		this.#load = null;
		try {
			this.#phase = 'loading';
			const template = await deps.template();
			this.#templateThinking = thinkingDefault(template);
			const messages: ChatMessage[] = this.turns
				.filter((t) => t.content.trim() !== '')
				.map((t) => ({ ...t }));
			const { item, answer } = conversationItem(messages);
			const contextWindow = await deps.contextWindow?.(abort.signal);
			const config = this.#config(deps, template, item, contextWindow);
			const store = new MemoryStore();
			if (answer !== undefined) {
				await store.putAnswer(typedAnswer(config, item, answer));
			}
			const indexOf: Record<string, Condition> = Object.fromEntries(
				planConditions(config).map((c) => [recordKey(item.id, c), c])
			);
			for await (const e of runProbe(config, {
				engine: deps.engine,
				judge: deps.judge?.engine ?? deps.engine,
				store,
				template,
				signal: abort.signal,
				// One turn after another, as before: each streams in full before the next starts.
				concurrency: 1
			})) {
				this.#apply(e, { config, template, indexOf });
			}
		} catch (err) {
			this.#fail(err);
		} finally {
			this.#abort = null;
		}
	}

	/** A run's config for this conversation: one item, N samples at one temperature, no edit. */
	#config(
		deps: PlaygroundDeps,
		template: ChatTemplate,
		item: ProbeConfig['items'][number],
		contextWindow: number | undefined
	): ProbeConfig {
		return conversationConfig({
			run_id: PLAYGROUND_RUN_ID,
			template,
			item,
			model: deps.model,
			judgeModel: deps.judge?.model,
			seed: this.seed,
			temperature: this.temperature,
			samples: this.n,
			thinking: deps.thinking,
			limits: deps.limits,
			contextWindow
		});
	}

	/** One pipeline event as playground state. */
	#apply(
		e: ProbeEvent,
		run: { config: ProbeConfig; template: ChatTemplate; indexOf: Record<string, Condition> }
	): void {
		const cond = 'key' in e && e.key !== undefined ? run.indexOf[e.key] : undefined;
		const index = cond?.sample ?? -1;
		switch (e.type) {
			case 'loading':
				if (e.progress) this.#load = e.progress;
				return;
			case 'stage':
				// Tasks queued behind a stop still announce themselves before they find it.
				if (this.#abort?.signal.aborted) return;
				if (e.stage === 'answer') this.#startAnswer();
				else if (e.stage === 'user_turn' && cond) {
					const seed = userTurnSeed(run.config.seed, CONVERSATION_ITEM_ID, cond);
					this.#patch({ index, seed, text: '', streaming: true, judging: false });
				} else if (e.stage === 'judge' && cond) this.#patch({ index, judging: true });
				return;
			case 'token':
				if (e.stage === 'answer') this.#answerTurn().content += e.delta;
				else if (cond) this.#appendText(index, e.delta);
				return;
			case 'answer':
				this.#showPrompt(run, e.answer);
				return;
			case 'user_turn':
				if (!cond) return;
				this.#patch({
					index,
					text: e.text,
					streaming: false,
					rule_label: e.rule_label,
					rule_reason: e.rule_reason
				});
				return;
			case 'judged':
				if (!cond) return;
				this.#patch({
					index,
					judging: false,
					label: e.label,
					source: e.source,
					reason: e.rationale
				});
				return;
			case 'error':
				if (e.fatal || this.#error === null) {
					this.#error = e.recovery ? `${e.message} ${e.recovery}` : e.message;
				}
				if (e.fatal) this.#phase = 'failed';
				return;
			case 'done':
				if (this.#phase !== 'failed') this.#phase = e.aborted ? 'stopped' : 'done';
				return;
		}
	}

	/** The conversation ends with the user: the model answers first, into a new assistant turn. */
	#startAnswer(): void {
		this.#phase = 'answering';
		this.turns.push({ role: 'assistant', content: '' });
	}

	/** The proxy in the list, not a literal pushed: edits to it are what the view sees. */
	#answerTurn(): PlaygroundTurn {
		return this.turns[this.turns.length - 1];
	}

	/** The answer is known (typed, or generated): the probe prompt a run would send after it. */
	#showPrompt(run: { config: ProbeConfig; template: ChatTemplate }, answer: AnswerRecord): void {
		const { config, template } = run;
		// As in a run: only the visible answer goes into the conversation the probe continues.
		if (this.#phase === 'answering') this.#answerTurn().content = answer.answer;
		const { input, header } = shownProbe(config, template, answer);
		this.#prompt = input.prompt;
		this.#header = header;
		this.#phase = 'generating';
	}

	#appendText(index: number, delta: string): void {
		const current = this.#samples.find((s) => s.index === index)?.text ?? '';
		this.#patch({ index, text: current + delta });
	}

	#fail(err: unknown): void {
		if (this.#abort?.signal.aborted) {
			this.#phase = 'stopped';
			return;
		}
		this.#phase = 'failed';
		this.#error = errorText(err);
	}

	#patch(p: Partial<PlaygroundSample> & { index: number }): void {
		const list = [...this.#samples];
		const at = list.findIndex((s) => s.index === p.index);
		if (at < 0) list.push({ seed: 0, text: '', streaming: false, judging: false, ...p });
		else list[at] = { ...list[at], ...p };
		this.#samples = list;
	}
}
