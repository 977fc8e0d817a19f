/**
 * Multiple-choice scoring: which option letter (A–J) did the model pick?
 *
 * Explicit statements ("The answer is (B)", "Answer: C", "\boxed{D}", "B is correct") beat stray
 * letters, and when the text only offers stray markers that disagree ("(A) … (C) …") we return
 * null rather than guess. Lowercase letters count only when marked ("(a)", "answer: a."), because
 * "a" and "I" are also English words.
 */

export const CHOICE_LETTERS = 'ABCDEFGHIJ';
const MAX_CHOICES = CHOICE_LETTERS.length;

const OPEN = String.raw`(?:\*\*|__|\\boxed\{|\\text\{|[(\[$]|\s)*`;
const CLOSE = String.raw`(?:\*\*|__|[)\]}$])*`;
/**
 * The letter, with what wraps it; the letter must not start a longer word ("Because"). What
 * follows is only looked at, so a later "the answer is D" in the same line is still found.
 */
const LETTER = String.raw`(?<open>${OPEN})(?<letter>[A-Ja-j])(?<close>${CLOSE})(?![\w'’])(?=(?<after>[^\n]{0,24}))`;

const EXPLICIT = [
	// "The answer is (B)", "Correct answer: C", "the answer would be option D".
	new RegExp(
		String.raw`(?:answer|choice|option)(?:\*\*|__)?\s*(?:is|:|=|-|would\s+be|should\s+be)\s*:?\s*(?:(?:option|choice|letter)\s*)?${LETTER}`,
		'gi'
	),
	// "\boxed{B}" on its own.
	new RegExp(String.raw`\\boxed\{\s*(?<open>)(?<letter>[A-J])(?<close>)\s*\}(?<after>)`, 'g'),
	// "I choose B", "I'd pick (C)".
	new RegExp(
		String.raw`\b(?:choose|pick|select|go\s+with)\s+(?:(?:option|choice)\s+)?${LETTER}`,
		'gi'
	),
	// "B is correct", "(C) is the right answer", "Option D is the best choice".
	new RegExp(
		String.raw`(?<![\w'])(?<open>[(*]*)(?<letter>[A-J])(?<close>[)*]*)(?<after>)\s+is\s+(?:the\s+)?(?:correct|right|best)\b`,
		'g'
	)
];

/** A whole reply that is only a letter: "B", "(b)", "**C**", "D.", "[A]". */
const LONE = /^[\s*_([{]*([A-Ja-j])[\s*_)\]}.:]*$/;
/** A reply that opens with a marked letter: "B) Paris", "C. 42", "(a) yes", "**D**: …". */
const LEADING = /^[\s*_]*(?:\(([A-Ja-j])\)|([A-J])(?:[).:]|\*\*)|([a-j])\))(?=\s|\*|$)/;
/** Marked letters anywhere: "(B)", "**C**", "[D]", or a line starting "E)". */
const LINE_START_MARKER = /^[ \t]*([A-J])[).:](?=\s)/gm;
const MARKERS = [
	/(?<!\w)\(([A-Ja-j])\)/g,
	/\*\*([A-J])[).:]?\*\*/g,
	/(?<!\w)\[([A-J])\]/g,
	LINE_START_MARKER
];
/** Words that may follow a bare "A" or "I" when it names an option rather than being a word. */
const AFTER_BARE_WORD_LETTER = /^\s+(?:because|since|as|is|which|—|–|-)(?:\s|$)/;

interface LetterMatch {
	open?: string;
	letter: string;
	close?: string;
	after?: string;
}

/** Rejects captures that are really English words or alternatives ("a bit", "B or C"). */
function acceptCapture(groups: LetterMatch, allowed: string): string | null {
	const letter = groups.letter.toUpperCase();
	if (!allowed.includes(letter)) return null;
	const marked = (groups.open ?? '').trim() !== '' || (groups.close ?? '') !== '';
	const after = groups.after ?? '';
	if (/^\s*(?:or|and|\/)\s/i.test(after)) return null;
	if (groups.letter !== letter && !marked && !/^\s*(?:[.!;:,]|$)/.test(after)) return null;
	if (!marked && (letter === 'A' || letter === 'I') && /^\s+[a-z]/.test(after)) {
		if (!AFTER_BARE_WORD_LETTER.test(after)) return null;
	}
	return letter;
}

function lastExplicit(text: string, allowed: string): string | null {
	let best: { index: number; letter: string } | null = null;
	for (const pattern of EXPLICIT) {
		for (const match of text.matchAll(pattern)) {
			const groups = match.groups as LetterMatch | undefined;
			const letter = groups ? acceptCapture(groups, allowed) : null;
			if (letter && (best === null || match.index >= best.index)) {
				best = { index: match.index, letter };
			}
		}
	}
	return best?.letter ?? null;
}

function markedLetters(text: string, allowed: string, patterns: RegExp[]): Set<string> {
	const seen = new Set<string>();
	for (const pattern of patterns) {
		for (const match of text.matchAll(pattern)) {
			const letter = match[1].toUpperCase();
			if (allowed.includes(letter)) seen.add(letter);
		}
	}
	return seen;
}

function uniqueMarker(text: string, allowed: string): string | null {
	const seen = markedLetters(text, allowed, MARKERS);
	return seen.size === 1 ? [...seen][0] : null;
}

/**
 * "B) Paris" picks B, but "A) foo\nB) bar" is the option list restated and "(B) or (C)" is a
 * hedge: a leading letter counts only when no other letter is marked anywhere.
 */
function leadingLetter(text: string, allowed: string): string | null {
	const leading = LEADING.exec(text);
	if (!leading) return null;
	const letter = (leading[1] ?? leading[2] ?? leading[3]).toUpperCase();
	if (!allowed.includes(letter)) return null;
	const listed = markedLetters(text, allowed, MARKERS);
	listed.add(letter);
	return listed.size === 1 ? letter : null;
}

/**
 * The option letter the text commits to, upper-cased, or null when there is none or the text
 * points at more than one. Letters past `numChoices` (4 → A–D) are never an answer.
 */
export function extractChoice(text: string, numChoices: number = MAX_CHOICES): string | null {
	const count = Math.min(Math.max(Math.trunc(numChoices), 1), MAX_CHOICES);
	const allowed = CHOICE_LETTERS.slice(0, count);
	const trimmed = text.trim();
	const lone = LONE.exec(trimmed);
	if (lone) {
		const letter = lone[1].toUpperCase();
		return allowed.includes(letter) ? letter : null;
	}
	const explicit = lastExplicit(trimmed, allowed);
	if (explicit) return explicit;
	return leadingLetter(trimmed, allowed) ?? uniqueMarker(trimmed, allowed);
}

/** Whether the text picks the gold letter (gold may be "B", "b" or "(B)"). */
export function choiceCorrect(text: string, gold: string, numChoices?: number): boolean {
	const expected = extractChoice(gold, MAX_CHOICES);
	return expected !== null && extractChoice(text, numChoices) === expected;
}
