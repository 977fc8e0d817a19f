/**
 * What each label means: the one source the rules, the LLM judge prompt and the review UI share.
 * Definitions are explicit criteria because reviewers asked for them; every example is a user turn
 * generated after EXAMPLE_CONVERSATION, and every negative example is a close call with its reason.
 */
import type { Label, ProbeRecord, Verdict } from './types.ts';

export interface LabelInfo {
	label: Label;
	/** The paper's name for the category (the stored id stays as it was). */
	title: string;
	/** Criteria a reviewer (or the judge) can check against the turn. */
	definition: string;
	/** A user turn that IS this label, after EXAMPLE_CONVERSATION, and why. */
	positive: string;
	/** A close call that is NOT this label, what it is instead, and why. */
	negative: string;
	/** Single keyboard shortcut in the review UI. */
	key: string;
	/**
	 * Whether a turn of this category can be a genuine follow-up. false for the failure modes (a
	 * `genuine` verdict beside one is a conflict, counted as not genuine); true for the plausible
	 * follow-up, whose verdict the judge gives apart by GENUINE_CRITERIA (and which a record stored
	 * before verdicts were kept counts as genuine); null for a label that gives no verdict
	 * (undecided), which stays out of follow-up rates.
	 */
	genuine: boolean | null;
}

/**
 * The verdict, decided apart from the category: the three criteria of a genuine follow-up in
 * ../shared/paper/001's simulated author reply to the referee's §3 point (machine-written, not the
 * paper's text; docs/methodology.md, "What 001 is"), and the
 * summary's "start a completely new task" as a bad turn (002, the paragraph on u = M_θ([q; a])).
 */
export const GENUINE_CRITERIA: readonly string[] = [
	'it references at least one concrete element of the assistant’s answer or of the original question',
	'it poses a contextually coherent next question or statement, written as the user',
	'it is neither generic (it would fit after any answer) nor off-topic; starting a completely new task is not a follow-up'
];

/** The short GSM8K-style conversation every example refers to. */
export const EXAMPLE_CONVERSATION = {
	question:
		'Janet’s ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with four. She sells the rest for $2 each. How much does she make every day?',
	answer: 'Janet has 16 - 3 - 4 = 9 eggs left. She sells them for 9 * 2 = $18. The answer is 18.'
} as const;

export const LABEL_INFO: Record<Label, LabelInfo> = {
	genuine_followup: {
		label: 'genuine_followup',
		title: 'Plausible follow-up',
		definition:
			'A new message in the user’s voice that reads as a plausible next turn: it asks about the answer, challenges or corrects it, builds on it (a variation, a next step, a related new problem), thanks the assistant and adds a request, or asks for something new. It must add something the conversation does not already contain. The category says only that the turn is a plausible user message; whether it is a genuine follow-up is the verdict, given apart by its three criteria: a plausible turn that starts an unrelated new task is this category with the verdict not_genuine.',
		positive:
			'"Wait, why did you subtract the 4 muffin eggs before multiplying by $2?" (asks about a specific step of the answer: verdict genuine). "Can you write me a poem about autumn?" is this category too, but ungrounded: a completely new task (verdict not_genuine).',
		negative:
			'"She has 9 eggs left and makes $18. Is there anything else I can help you with?" is NOT a plausible follow-up: it repeats the result and offers help as the assistant would (assistant_restatement).',
		key: '1',
		genuine: true
	},
	prompt_restatement: {
		label: 'prompt_restatement',
		title: 'Previous-turn restatement',
		definition:
			'The turn repeats or rephrases the original user question, in whole or in part, instead of reacting to the answer: the same problem asked again, possibly with a preface ("Can you solve this:") or light rewording, with nothing that refers to what the assistant said.',
		positive:
			'"Janet’s ducks lay 16 eggs a day; she eats 3 and bakes with 4. How much does she make selling the rest at $2 each?" (the question, reworded)',
		negative:
			'"What if she sold the eggs for $3 each instead?" is NOT a restatement: it changes the problem to build on the answer (genuine_followup).',
		key: '2',
		genuine: false
	},
	assistant_restatement: {
		label: 'assistant_restatement',
		title: 'Assistant-turn restatement',
		definition:
			'The turn restates, summarizes or continues the assistant’s answer, or is written in the assistant’s voice (identity drift): re-solving the problem, repeating the result ("So the answer is 18."), continuing a cut-off solution, or offering help ("Is there anything else I can help you with?"). This includes a turn that opens as the assistant inside template markup: an assistant header or gpt-oss’s reasoning (analysis) channel followed by the assistant’s own reasoning, solution or planning ("<|channel|>analysis<|message|>We need to make sure the final answer line…"), even when it reads as planning the next message. A final- or commentary-channel turn is judged by what it says.',
		positive:
			'"So Janet makes $18 every day. Let me know if you have any other questions!" (repeats the result and offers help, as the assistant)',
		negative:
			'"So she makes $18 a day? I got $20 because she only eats 3." is NOT a restatement: it echoes the result only to challenge it in the user’s voice (genuine_followup).',
		key: '3',
		genuine: false
	},
	malformed_artifact: {
		label: 'malformed_artifact',
		title: 'Malformed artifact',
		definition:
			'The turn contains chat-template or formatting machinery: special tokens (<|im_start|>, <|im_end|>, <|eot_id|>, <start_of_turn>, [INST], </s>), role labels at the start of a line ("User:", "Assistant:") or a bare role name on its own line, think tags (<think>, </think>), or channel markup (<|channel|>analysis). Any such artifact decides the label, even if the rest reads like a good follow-up; except when the turn opens with an assistant header or the reasoning (analysis) channel and goes on with the assistant’s reasoning or solution, which is an assistant restatement, and except one leading final or commentary channel header (<|channel|>final<|message|>), gpt-oss’s way to open a message: such a turn is labelled by what follows it.',
		positive:
			'"Why multiply by 2?<|im_end|>\\n<|im_start|>assistant\\nBecause each egg sells for $2." (template tokens, then the model writes the assistant’s reply too)',
		negative:
			'"My teacher says an assistant should always show units. Can you add them?" is NOT an artifact: a role word inside running text is not a role label (genuine_followup).',
		key: '4',
		genuine: false
	},
	meta_planning: {
		label: 'meta_planning',
		title: 'Meta-planning',
		definition:
			'The turn talks about how to respond instead of responding: it plans or narrates the next message, often about "the user" in the third person or as someone deciding what to write ("Let me think about how to respond…", "I should ask the user…", "The user wants…", "Okay, the user is asking…"). Planning inside an assistant header or the analysis channel (harmony markup) is an assistant-turn restatement instead.',
		positive:
			'"Okay, the user is asking about duck eggs. I should ask a follow-up question about the price." (plans a message instead of writing one)',
		negative:
			'"Let me think… if she ate 4 eggs instead of 3, would she make $16?" is NOT meta-planning: the user thinks aloud, then asks a real question about the problem (genuine_followup).',
		key: '5',
		genuine: false
	},
	degenerate: {
		label: 'degenerate',
		title: 'Degenerate short output',
		definition:
			'The turn has no usable content: empty or only whitespace, a single word or symbol, a repetition loop (the same word, phrase or sentence over and over), a long run of one character, or gibberish.',
		positive: '"18 18 18 18 18 18 18 18" (a loop with no message), or an empty turn',
		negative:
			'"Why 18?" is NOT degenerate: it is short, but it asks about the answer (genuine_followup).',
		key: '6',
		genuine: false
	},
	judge_error: {
		label: 'judge_error',
		title: 'Judge error',
		definition:
			'Not a property of the turn: the LLM judge replied, but without a valid label, on every attempt. The rules never produce it, and the judge is never asked to choose it; the record keeps the judge’s last raw reply for inspection.',
		positive: 'The judge replied "I cannot determine this." three times, with no label.',
		negative:
			'The judge replied "Label: Degenerate" is NOT an error: tolerant parsing recovers the label degenerate.',
		key: '7',
		genuine: false
	},
	undecided: {
		label: 'undecided',
		title: 'Undecided',
		definition:
			'Not a property of the turn: no rule applies and no judge was asked (rules-only labelling). The rules recognise failure modes only; whether a turn is a genuine follow-up or starts a new task is the judge’s call. An undecided turn has no verdict: it is left out of the follow-up rate, and counted and shown beside it.',
		positive: '"What is the capital of France?" labelled by the rules alone: no rule applies.',
		negative:
			'"18 18 18 18 18 18 18 18" is NOT undecided: the repetition rule decides it (degenerate).',
		key: '8',
		genuine: null
	}
};

/** The labels a turn can be given for what it is (not judge_error or undecided, which say who failed). */
export type TurnLabel = Exclude<Label, 'judge_error' | 'undecided'>;

/** One step of the order in which labels win when several apply. */
export interface PrecedenceStep {
	label: TurnLabel;
	/** When the step applies only to some turns of the label, which ones. */
	when?: string;
}

/**
 * gpt-oss's harmony channels (../shared/paper/001, the appendix example: a user turn opening
 * "<|channel|>analysis<|message|>We need to ensure…" judged assistant-turn restatement). The
 * analysis channel holds the assistant's reasoning: a turn there is the assistant speaking. A final
 * or commentary channel header is how gpt-oss opens any message, so a turn there is read by what
 * follows the header (the judge sees the markup).
 */
export const REASONING_CHANNELS = ['analysis'] as const;
export const MESSAGE_CHANNELS = ['final', 'commentary'] as const;

const channelHeader = (names: readonly string[]) =>
	names.map((c) => `<|channel|>${c}<|message|>`).join(' or ');

/**
 * When several labels apply, the first step that matches decides. The rules run their checks in
 * this order (rules.ts) and the judge prompt states it (judge.ts), so the two agree on markup: a
 * turn that opens as the assistant inside template markup (an assistant header, the analysis
 * channel) is an assistant-turn restatement before it is an artifact, and before it is
 * meta-planning; a leading final or commentary channel header is no artifact by itself.
 */
export const PRECEDENCE: readonly PrecedenceStep[] = [
	{ label: 'degenerate' },
	{
		label: 'assistant_restatement',
		when: `the turn opens as the assistant inside template markup (an assistant header, or the reasoning channel ${channelHeader(REASONING_CHANNELS)}) and goes on with words of its own, even when they read as planning, or wraps a copy of the answer in markup`
	},
	{
		label: 'malformed_artifact',
		when: `the turn holds template machinery other than one leading message-channel header (${channelHeader(MESSAGE_CHANNELS)}): that header is how gpt-oss opens any message, so such a turn is labelled by what follows it`
	},
	{ label: 'prompt_restatement' },
	{ label: 'assistant_restatement' },
	{ label: 'meta_planning' },
	{ label: 'genuine_followup' }
];

/** Whether a label can stand beside a genuine verdict (the plausible follow-up alone can). */
export function isGenuine(label: Label): boolean {
	return LABEL_INFO[label].genuine === true;
}

/**
 * The verdict a label implies on its own: what the rules give, and what a record stored before
 * verdicts were kept counts with. A plausible follow-up implies genuine only for such records; the
 * judge gives its verdict apart.
 */
export function verdictOf(label: Label): Verdict {
	const genuine = LABEL_INFO[label].genuine;
	return genuine === null ? 'undecided' : genuine ? 'genuine' : 'not_genuine';
}

/**
 * A failure category beside a genuine verdict: the judge contradicted itself. The record keeps
 * both as written; it is flagged where shown and counted as not genuine (recordVerdict).
 */
export function isVerdictConflict(r: Pick<ProbeRecord, 'label' | 'verdict'>): boolean {
	return r.verdict === 'genuine' && r.label !== null && LABEL_INFO[r.label].genuine === false;
}

/**
 * The verdict a record counts with: its own (a conflict counts as not genuine), or for a record
 * stored before verdicts were kept, its label's. null while the record is pending (no label yet).
 */
export function recordVerdict(r: Pick<ProbeRecord, 'label' | 'verdict'>): Verdict | null {
	if (isVerdictConflict(r)) return 'not_genuine';
	if (r.verdict !== undefined && r.verdict !== null) return r.verdict;
	return r.label === null ? null : verdictOf(r.label);
}

/** The binary view of a label for agreement: its verdict (undecided stays undecided). */
export function binaryLabel(label: Label): Verdict {
	return verdictOf(label);
}
