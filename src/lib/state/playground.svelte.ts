/**
 * The playground: a conversation typed by hand, rendered with the model's own template, then the
 * same model continues as the user N times. Each turn streams and is labelled live, by the rules
 * and, when asked, the LLM judge, using the same core functions a run uses.
 */
import { errorText } from '../errors/describe.ts';
import type { Engine, LoadProgress } from '../probe/engine.ts';
import { buildJudgeMessages, judgeSchema, judgeWithRetries } from '../probe/judge.ts';
import { EXAMPLE_CONVERSATION } from '../probe/labels.ts';
import { classifyRules } from '../probe/rules.ts';
import {
	answerStopSequences,
	assistantPrompt,
	type ChatTemplate,
	DEFAULT_DATE_STRING,
	opensReasoning,
	probePrompt,
	stopSequences,
	thinkingDefault,
	userHeader
} from '../probe/template.ts';
import type { ChatMessage, Label, RuleLabel } from '../probe/types.ts';
import { splitThinking } from '../probe/thinking.ts';
import { hashSeed } from '../probe/random.ts';

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
}

export type PlaygroundPhase =
	'idle' | 'loading' | 'answering' | 'generating' | 'done' | 'stopped' | 'failed';

const MAX_TOKENS = 200;
const ANSWER_MAX_TOKENS = 768;
const JUDGE_MAX_TOKENS = 300;
export const MAX_SAMPLES = 10;

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
		const signal = abort.signal;
		this.#error = null;
		this.#samples = [];
		this.#prompt = '';
		this.#load = null;
		try {
			this.#phase = 'loading';
			const template = await deps.template();
			this.#templateThinking = thinkingDefault(template);
			const render = { enable_thinking: deps.thinking, date_string: DEFAULT_DATE_STRING };
			const stop = stopSequences(template);
			const both = deps.judge?.engine === deps.engine && deps.judge.model !== deps.model;
			const models = both && deps.judge ? [deps.model, deps.judge.model] : [deps.model];
			await deps.engine.load(models, {
				signal,
				onProgress: (p) => (this.#load = p)
			});
			if (deps.judge && deps.judge.engine !== deps.engine) {
				await deps.judge.engine.load([deps.judge.model], { signal });
			}
			const messages = (): ChatMessage[] =>
				this.turns.filter((t) => t.content.trim() !== '').map((t) => ({ ...t }));
			if (messages().at(-1)?.role === 'user') {
				this.#phase = 'answering';
				const prompt = assistantPrompt(template, messages(), render);
				this.turns.push({ role: 'assistant', content: '' });
				// The proxy in the list, not the literal pushed: edits to it are what the view sees.
				const answer = this.turns[this.turns.length - 1];
				const res = await deps.engine.complete({
					model: deps.model,
					prompt,
					temperature: 0,
					top_p: 1,
					seed: hashSeed(this.seed, 'playground', 'answer'),
					max_tokens: ANSWER_MAX_TOKENS,
					stop: answerStopSequences(template),
					signal,
					onToken: (d) => (answer.content += d)
				});
				// As in a run: only the visible answer goes into the conversation the probe continues.
				answer.content = splitThinking(res.text, {
					prefilledThinking: opensReasoning(prompt)
				}).visible;
			}
			const conversation = messages();
			const answerText = conversation.at(-1)?.content ?? '';
			const question = [...conversation].reverse().find((m) => m.role === 'user')?.content ?? '';
			this.#prompt = probePrompt(template, conversation, render);
			this.#header = userHeader(template, conversation, render);
			this.#phase = 'generating';
			for (let i = 0; i < this.n; i++) {
				if (signal.aborted) break;
				await this.#sample(i, deps, { question, answer: answerText, stop, signal });
			}
			this.#phase = signal.aborted ? 'stopped' : 'done';
		} catch (err) {
			if (signal.aborted) this.#phase = 'stopped';
			else {
				this.#phase = 'failed';
				this.#error = errorText(err);
			}
		} finally {
			this.#abort = null;
		}
	}

	async #sample(
		index: number,
		deps: PlaygroundDeps,
		x: { question: string; answer: string; stop: string[]; signal: AbortSignal }
	): Promise<void> {
		const seed = hashSeed(this.seed, 'playground', index);
		this.#patch({ index, seed, text: '', streaming: true, judging: false });
		let text = '';
		const res = await deps.engine.complete({
			model: deps.model,
			prompt: this.#prompt,
			temperature: this.temperature,
			top_p: 1,
			seed,
			max_tokens: MAX_TOKENS,
			stop: x.stop,
			signal: x.signal,
			onToken: (d) => {
				text += d;
				this.#patch({ index, text });
			}
		});
		const rule = classifyRules({
			question: x.question,
			answer: x.answer,
			user_turn: res.text,
			stop_tokens: x.stop
		});
		this.#patch({
			index,
			text: res.text,
			streaming: false,
			rule_label: rule.label,
			rule_reason: rule.reason
		});
		if (rule.label !== 'undecided' || !deps.judge) {
			// As in a run: a turn no rule catches counts as a genuine follow-up.
			this.#patch({
				index,
				label: rule.label === 'undecided' ? 'genuine_followup' : rule.label,
				source: 'rules',
				reason: rule.label === 'undecided' ? 'no rule fired; counts as a follow-up' : rule.reason
			});
			return;
		}
		const judge = deps.judge;
		this.#patch({ index, judging: true });
		const verdict = await judgeWithRetries((attempt) =>
			judge.engine
				.chatJson({
					model: judge.model,
					messages: buildJudgeMessages({
						question: x.question,
						answer: x.answer,
						user_turn: res.text
					}),
					schema: judgeSchema(),
					temperature: attempt === 1 ? 0 : 0.7,
					top_p: 1,
					seed: hashSeed(seed, 'judge', attempt),
					max_tokens: JUDGE_MAX_TOKENS,
					signal: x.signal
				})
				.then((r) => r.text)
		);
		this.#patch({
			index,
			judging: false,
			label: verdict.label,
			source: 'judge',
			reason: verdict.rationale
		});
	}

	#patch(p: Partial<PlaygroundSample> & { index: number }): void {
		const list = [...this.#samples];
		const at = list.findIndex((s) => s.index === p.index);
		if (at < 0) list.push({ seed: 0, text: '', streaming: false, judging: false, ...p });
		else list[at] = { ...list[at], ...p };
		this.#samples = list;
	}
}
