/**
 * Scores an assistant answer against its dataset item. Scoring never throws: a run should not
 * stop because one item is malformed, so problems come back as `correct: null` with the reason
 * in `detail`.
 */
import type { DatasetItem } from '../types.ts';
import { extractChoice } from './choice.ts';
import { extractGsm8kAnswer, sameNumber } from './gsm8k.ts';
import { evaluateIfeval, usesNlp, type NlpSupport } from './ifeval/index.ts';
import { stripThinking } from './think.ts';

export interface ScoreResult {
	/** null when the item cannot be scored (open conversation, missing gold, bad kwargs). */
	correct: boolean | null;
	/** What was extracted or checked, for display: "predicted 18, gold 18". */
	detail: string;
	/** IFEval: every instruction followed as written (equals `correct`). */
	strict?: boolean;
	/** IFEval: every instruction followed under IFEval's loose variants (Zhou et al. 2023). */
	loose?: boolean;
	per_instruction?: { id: string; strict: boolean; loose: boolean }[];
}

function scoreGsm8k(gold: string, answer: string): ScoreResult {
	const expected = extractGsm8kAnswer(gold);
	if (expected === null) return { correct: null, detail: `gold has no number: ${gold}` };
	const predicted = extractGsm8kAnswer(answer);
	if (predicted === null) return { correct: false, detail: `no number found, gold ${expected}` };
	return {
		correct: sameNumber(predicted, expected),
		detail: `predicted ${predicted}, gold ${expected}`
	};
}

function scoreChoice(item: DatasetItem, gold: string, answer: string): ScoreResult {
	const expected = extractChoice(gold);
	if (expected === null) return { correct: null, detail: `gold is not a letter: ${gold}` };
	const predicted = extractChoice(answer, item.choices?.length);
	if (predicted === null) {
		return { correct: false, detail: `no single answer letter found, gold ${expected}` };
	}
	return { correct: predicted === expected, detail: `predicted ${predicted}, gold ${expected}` };
}

function scoreIfeval(item: DatasetItem, answer: string, nlp?: NlpSupport): ScoreResult {
	const ids = item.instruction_ids ?? [];
	if (ids.length === 0) return { correct: null, detail: 'no IFEval instructions on this item' };
	try {
		const result = evaluateIfeval(ids, item.kwargs ?? [], answer, nlp);
		const strictCount = result.per_instruction.filter((r) => r.strict).length;
		const looseCount = result.per_instruction.filter((r) => r.loose).length;
		const failed = result.per_instruction.filter((r) => !r.strict).map((r) => r.id);
		const detail =
			`strict ${strictCount}/${ids.length}, loose ${looseCount}/${ids.length}` +
			(failed.length > 0 ? `; not followed: ${failed.join(', ')}` : '');
		return { correct: result.strict, detail, ...result };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { correct: null, detail: `cannot score: ${message}` };
	}
}

/**
 * Scores `answer` for `item`. A leading `<think>…</think>` block is ignored; an unterminated one
 * means the model never got to answer. `nlp` serves the IFBench instructions that need NLTK's
 * English data; without it they are unscored. Never throws.
 */
export function scoreAnswer(item: DatasetItem, answer: string, nlp?: NlpSupport): ScoreResult {
	const text = stripThinking(answer);
	switch (item.task) {
		case 'none':
			return { correct: null, detail: 'open conversation: not scored' };
		case 'gsm8k':
			return item.gold === undefined
				? { correct: null, detail: 'no gold answer' }
				: scoreGsm8k(item.gold, text);
		case 'multiple_choice':
			return item.gold === undefined
				? { correct: null, detail: 'no gold answer' }
				: scoreChoice(item, item.gold, text);
		case 'ifeval':
			return scoreIfeval(item, text, nlp);
	}
}

/** Whether scoring `items` needs, or is made exact by, NLTK's English data: load it first. */
export function itemsUseNlp(items: readonly DatasetItem[]): boolean {
	return items.some((item) => item.task === 'ifeval' && (item.instruction_ids ?? []).some(usesNlp));
}

export { extractGsm8kAnswer, gsm8kCorrect } from './gsm8k.ts';
export { choiceCorrect, extractChoice } from './choice.ts';
export { stripThinking } from './think.ts';
export {
	evaluateIfeval,
	IfevalArgumentError,
	NlpUnavailableError,
	UnknownInstructionError
} from './ifeval/index.ts';
export type { NlpSupport } from './ifeval/index.ts';
