/**
 * GSM8K scoring: find the model's final number and compare it with the gold one.
 *
 * The reference rule takes the text after `#### ` and drops commas. Chat models rarely write
 * `####`, so we look for the answer the way people read it, most explicit first:
 * `#### n` → "the answer is n" / "final answer: n" → `\boxed{n}` → a bold bare number `**$18**`
 * → the last number in the text. Currency, units, thousands separators and trailing periods are
 * tolerated; number words ("eighteen") are not understood.
 */

/**
 * One number: optional sign (ASCII or U+2212; not after a word character, so "3-5" is 5),
 * thousands groups or plain digits, optional decimals, optional "/denominator".
 * The lookbehind keeps us from starting inside a decimal; a comma list "1,2,3" still ends in 3.
 */
const NUMBER = String.raw`(?<![\d.])(?:(?<![\w)])[-−])?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:\/\d+)?`;

/** Markdown and LaTeX that may sit between an answer phrase and its number. */
const DECORATION = String.raw`(?:\*\*|__|\$\$?|\\\(|\\\[|\\boxed\{|\\text\{|\\\$|[$€£¥]|\s)*`;

const HASHES = new RegExp(String.raw`####\s*${DECORATION}(${NUMBER})`, 'g');
/**
 * "The answer is", "Answer:", "**Answer**:", "Final answer" (the separator is optional only after
 * "final": "answer 3 questions" states nothing).
 */
const STATEMENT =
	/(?:final\s+answer(?:\*\*|__)?\s*(?:is\b|[:=])?|answer(?:\*\*|__)?\s*(?:is\b|[:=]))\s*[:=]?/gi;
const LEADING_NUMBER = new RegExp(String.raw`^${DECORATION}(${NUMBER})`);
/** How far past an answer phrase we read: one line, at most this many characters. */
const STATEMENT_SPAN_CHARS = 120;
const BOLD_NUMBER = new RegExp(
	String.raw`\*\*\s*[$€£¥]?\s*(${NUMBER})\s*%?\s*[a-zA-Z ]{0,20}\*\*`,
	'g'
);
const ANY_NUMBER = new RegExp(NUMBER, 'g');
const BOXED = '\\boxed{';
const FRACTION = /\\d?frac\{\s*([^{}]*?)\s*\}\{\s*([^{}]*?)\s*\}/g;
/** Relative tolerance: "18.00", "18" and 17.999999999 (float noise) are the same answer. */
const RELATIVE_TOLERANCE = 1e-6;

/** Converts a matched number token to a value; null when it is not a finite number. */
function parseNumber(token: string): number | null {
	const [numerator, denominator] = token.replace(/−/g, '-').replace(/,/g, '').split('/');
	const value = Number(numerator);
	if (denominator === undefined) return Number.isFinite(value) ? value : null;
	const divisor = Number(denominator);
	// "1/0" is not a fraction anyone means: keep the numerator rather than Infinity.
	return divisor === 0 ? value : value / divisor;
}

/** Canonical text for a value: integers plainly ("18.00" → "18"), others without float noise. */
function formatNumber(value: number): string {
	if (Number.isInteger(value)) return value.toString();
	return Number(value.toPrecision(12)).toString();
}

function lastCapture(text: string, pattern: RegExp): string | null {
	let last: string | null = null;
	for (const match of text.matchAll(pattern)) last = match[1];
	return last;
}

/** The contents of the last `\boxed{…}`, braces balanced; null when there is none. */
function lastBoxed(text: string): string | null {
	const start = text.lastIndexOf(BOXED);
	if (start < 0) return null;
	let depth = 1;
	for (let i = start + BOXED.length; i < text.length; i++) {
		if (text[i] === '{') depth++;
		else if (text[i] === '}' && --depth === 0) return text.slice(start + BOXED.length, i);
	}
	return text.slice(start + BOXED.length);
}

/**
 * The number stated after the last answer phrase that is directly followed by one. "The answer
 * is 9 * 2 = 18" states 18: when the clause has an "=", the number after the last one wins.
 */
function statedAnswer(text: string): string | null {
	let found: string | null = null;
	for (const match of text.matchAll(STATEMENT)) {
		const rest = text.slice(
			match.index + match[0].length,
			match.index + match[0].length + STATEMENT_SPAN_CHARS
		);
		const first = LEADING_NUMBER.exec(rest);
		if (!first) continue;
		const clause = rest.slice(first[0].length - first[1].length).split(/\n|\.\s/)[0];
		const afterEquals = clause.includes('=') ? clause.slice(clause.lastIndexOf('=') + 1) : '';
		const resolved = LEADING_NUMBER.exec(afterEquals);
		found = resolved ? resolved[1] : first[1];
	}
	return found;
}

function lastNumberIn(text: string): string | null {
	const matches = text.match(ANY_NUMBER);
	return matches ? matches[matches.length - 1] : null;
}

/** LaTeX spellings that hide a plain number: `1{,}234`, `1\,234`, `\$18`, `\frac{3}{4}`. */
function normaliseLatex(text: string): string {
	return text
		.replace(/\{,\}/g, ',')
		.replace(/(\d)\\,(\d)/g, '$1$2')
		.replace(FRACTION, '$1/$2');
}

/**
 * The final numeric answer in `text`, as canonical digits ("1,234.50" → "1234.5"), or null when
 * the text holds no number. Works on model outputs and on GSM8K reference solutions alike.
 */
export function extractGsm8kAnswer(text: string): string | null {
	const clean = normaliseLatex(text);
	const boxed = lastBoxed(clean);
	const token =
		lastCapture(clean, HASHES) ??
		statedAnswer(clean) ??
		(boxed === null ? null : lastNumberIn(boxed)) ??
		lastCapture(clean, BOLD_NUMBER) ??
		lastNumberIn(clean);
	if (token === null) return null;
	const value = parseNumber(token);
	return value === null ? null : formatNumber(value);
}

/** Whether two canonical numbers are equal up to float noise. */
export function sameNumber(a: string, b: string): boolean {
	const x = Number(a);
	const y = Number(b);
	if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
	return Math.abs(x - y) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(y));
}

/**
 * Whether the model's text states the gold answer. `gold` may be a full GSM8K solution ending in
 * `#### N` or a bare number. False when either side has no number.
 */
export function gsm8kCorrect(prediction: string, gold: string): boolean {
	const predicted = extractGsm8kAnswer(prediction);
	const expected = extractGsm8kAnswer(gold);
	return predicted !== null && expected !== null && sameNumber(predicted, expected);
}
