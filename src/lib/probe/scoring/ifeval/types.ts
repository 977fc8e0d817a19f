import type { EnglishNlp } from '../nlp.ts';
import type { Kwargs } from './args.ts';

/** Whether one response follows one instruction (the reference's `check_following`). */
export type Check = (response: string) => boolean;

/**
 * Reads and validates an instruction's kwargs once (the reference's `build_description`) and
 * returns the check, so loose scoring can run it on eight variants without re-reading kwargs.
 * `nlp`, when the run has NLTK's English data, makes the few checks that split sentences or words
 * exact; without it they approximate (sentences.ts, text.ts).
 * @throws IfevalArgumentError when a kwarg is missing or malformed.
 */
export type Builder = (kwargs: Kwargs, nlp?: EnglishNlp) => Check;

/** Instruction id → builder, one table per instruction group. */
export type InstructionTable = Readonly<Record<string, Builder>>;
