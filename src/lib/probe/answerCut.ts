/**
 * Whether an item's answer was cut at the answer token limit, and where: the one derivation every
 * shell counts by. A record carries its answer's end (answer_finish_reason) and visible text, so
 * the fact travels with the records (db/facts.ts keeps it as answer_cut, the CLI's summarize reads
 * it from each line) and a run imported or summarized without its answers file counts the same.
 */
import type { AnswerRecord, ProbeRecord } from './types.ts';

/** How an item's answer was cut: 'reasoning' when the limit came before any visible answer. */
export type AnswerCut = 'answer' | 'reasoning' | null;

/** `answer` is the visible answer (reasoning split off), as in AnswerRecord and ProbeRecord. */
export function answerCut(a: Pick<AnswerRecord, 'finish_reason' | 'answer'>): AnswerCut {
	if (a.finish_reason !== 'length') return null;
	return a.answer.trim() === '' ? 'reasoning' : 'answer';
}

/**
 * What a record says of its answer: a record's facts carry `answer_cut`; a full record has its
 * answer's fields. null when not cut, and for a record made before answer_finish_reason was kept
 * (its run's answers still say).
 */
export type CutOfRecord =
	{ answer_cut?: AnswerCut } | Partial<Pick<ProbeRecord, 'answer_finish_reason' | 'answer'>>;

export function answerCutOf(r: CutOfRecord): AnswerCut {
	if ('answer_cut' in r && r.answer_cut !== undefined) return r.answer_cut;
	const { answer_finish_reason, answer } = r as Partial<ProbeRecord>;
	if (answer_finish_reason === undefined || typeof answer !== 'string') return null;
	return answerCut({ finish_reason: answer_finish_reason, answer });
}
