/** Runtime checks for DatasetItems that arrive as untyped JSON (the demo file, user imports). */
import { TASK_KINDS, type DatasetItem, type TaskKind } from '../probe/types.ts';

export function isTaskKind(value: unknown): value is TaskKind {
	return typeof value === 'string' && (TASK_KINDS as readonly string[]).includes(value);
}

/** A GSM8K gold: a bare number, or a worked solution whose final line is "#### n". */
export const GSM8K_FINAL_ANSWER = /####\s*-?[\d,]*\.?\d+\s*$/;
export const BARE_NUMBER = /^\s*-?[\d,]*\.?\d+\s*$/;

export function isGsm8kGold(gold: string): boolean {
	return GSM8K_FINAL_ANSWER.test(gold) || BARE_NUMBER.test(gold);
}

/**
 * What is wrong with a would-be item, as short phrases ("'prompt' is empty"); empty when valid.
 * Checks the fields every consumer relies on, not every optional field's contents.
 */
export function itemProblems(value: unknown): string[] {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return ['not an object'];
	}
	const item = value as Partial<Record<keyof DatasetItem, unknown>>;
	const problems: string[] = [];
	if (typeof item.id !== 'string' || item.id.trim() === '') problems.push("'id' is missing");
	if (!isTaskKind(item.task)) problems.push(`'task' must be one of ${TASK_KINDS.join(', ')}`);
	if (typeof item.prompt !== 'string' || item.prompt.trim() === '') {
		problems.push("'prompt' is missing or empty");
	}
	if (item.gold !== undefined && typeof item.gold !== 'string') {
		problems.push("'gold' must be a string");
	}
	if (item.task === 'gsm8k' && typeof item.gold === 'string' && !isGsm8kGold(item.gold)) {
		problems.push("a gsm8k 'gold' must be a number or end with '#### <number>'");
	}
	if (
		item.task === 'multiple_choice' &&
		!(typeof item.gold === 'string' && /^[A-Z]$/.test(item.gold))
	) {
		problems.push("a multiple_choice 'gold' must be a capital letter");
	}
	for (const field of ['fixed_answer', 'reference_turn'] as const) {
		if (item[field] !== undefined && typeof item[field] !== 'string') {
			problems.push(`'${field}' must be a string`);
		}
	}
	if (item.reference_turn !== undefined && item.fixed_answer === undefined) {
		problems.push("a 'reference_turn' needs the 'fixed_answer' it replies to");
	}
	if (item.task === 'ifeval' && !Array.isArray(item.instruction_ids)) {
		problems.push("an ifeval item needs 'instruction_ids'");
	}
	return problems;
}
