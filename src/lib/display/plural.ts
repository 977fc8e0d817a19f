/** Counted nouns, worded once: "1 turn", "3 turns", "1 sample", "0 items". */

/** `n` and the noun in the right number; `many` defaults to `one` + "s". */
export function count(n: number, one: string, many = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}
