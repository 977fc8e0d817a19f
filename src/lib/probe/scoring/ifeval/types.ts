import type { Kwargs } from './args.ts';

/** Whether one response follows one instruction (the reference's `check_following`). */
export type Check = (response: string) => boolean;

/**
 * Reads and validates an instruction's kwargs once (the reference's `build_description`) and
 * returns the check, so loose scoring can run it on eight variants without re-reading kwargs.
 * @throws IfevalArgumentError when a kwarg is missing or malformed.
 */
export type Builder = (kwargs: Kwargs) => Check;

/** Instruction id → builder, one table per instruction group. */
export type InstructionTable = Readonly<Record<string, Builder>>;
