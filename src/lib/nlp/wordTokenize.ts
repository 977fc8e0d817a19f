/**
 * NLTK's word tokenizer: `nltk.word_tokenize(text)` (English, preserve_line False), that is Punkt
 * sentences, then NLTKWordTokenizer.tokenize on each (convert_parentheses False).
 *
 * Our own TypeScript; its behaviour follows NLTK 3.10.3's tokenize/destructive.py and
 * tokenize/__init__.py (NLTK is Apache-2.0). Cross-checked against the real NLTK on the cases in
 * tests/fixtures/nltk-reference/punkt/. Python `re` semantics (Unicode `\s`, `\w`, `\d`, `\b`,
 * `$`, IGNORECASE) are reproduced as in punkt.ts.
 *
 * Pure: no DOM, no Node APIs.
 */
import { PY_D, PY_END, PY_S, PY_W, sentTokenize, type PunktOptions } from './punkt.ts';
import type { PunktParams } from './types.ts';

/**
 * A word as Python's `(?i)` matches it: each letter with its other case, plus what Python's
 * `re` also folds together ("i" with "İ" and "ı", "s" with "ſ"), which JavaScript's `i` flag
 * does not.
 */
function caseless(word: string): string {
	const extra: Record<string, string> = { i: 'İı', s: 'ſ' };
	return [...word]
		.map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}${extra[c] ?? ''}]` : c))
		.join('');
}

/** Python `\b` just before a word character. */
const WORD_BEGIN = `(?<!${PY_W})`;
/** Python `\b` just after a word character. */
const WORD_END = `(?!${PY_W})`;

type Rule = [RegExp, string];

const rule = (source: string, replacement: string): Rule => [new RegExp(source, 'gu'), replacement];

/** NLTKWordTokenizer.STARTING_QUOTES. */
const STARTING_QUOTES: Rule[] = [
	rule('([«“‘„]|`+)', ' $1 '),
	rule('^"', '``'),
	rule('(``)', ' $1 '),
	rule(`([ ([{<])("|'{2})`, '$1 `` '),
	rule(
		`${WORD_BEGIN}(')(?!(?:${['re', 've', 'll', 'm', 't', 's', 'd', 'n']
			.map(caseless)
			.join('|')})${WORD_END})(?=${PY_W})`,
		'$1 '
	)
];

/** NLTKWordTokenizer.PUNCTUATION. */
const PUNCTUATION: Rule[] = [
	rule(`([^.])(\\.)([\\])}>"'»”’ ]*)${PY_S}*${PY_END}`, '$1 $2 $3 '),
	rule(`([:,])([^${PY_D}])`, ' $1 $2'),
	rule(`([:,])${PY_END}`, ' $1 '),
	rule('\\.{2,}', ' $& '),
	rule('[;@#$%&]', ' $& '),
	rule('[\\u2012-\\u2015]', ' $& '),
	rule(`([^.])(\\.)([\\])}>"']*)${PY_S}*${PY_END}`, '$1 $2$3 '),
	rule('[?!]', ' $& '),
	rule("([^'])' ", "$1 ' "),
	rule('[*]', ' $& ')
];

/** NLTKWordTokenizer.PARENS_BRACKETS. */
const PARENS_BRACKETS = rule('[\\][(){}<>]', ' $& ');

/** NLTKWordTokenizer.DOUBLE_DASHES. */
const DOUBLE_DASHES = rule('--', ' -- ');

/** NLTKWordTokenizer.ENDING_QUOTES. */
const ENDING_QUOTES: Rule[] = [
	rule('([»”’])', ' $1 '),
	rule("''", " '' "),
	rule('"', " '' "),
	rule(`${PY_S}+`, ' '),
	rule("([^' ])('[sS]|'[mM]|'[dD]|') ", '$1 $2 '),
	rule("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", '$1 $2 ')
];

/** NLTKWordTokenizer.CONTRACTIONS2 (MacIntyre's list): "cannot" → "can not", … */
const CONTRACTIONS2: Rule[] = [
	['can', 'not', WORD_END],
	['d', "'ye", WORD_END],
	['gim', 'me', WORD_END],
	['gon', 'na', WORD_END],
	['got', 'ta', WORD_END],
	['lem', 'me', WORD_END],
	['more', "'n", WORD_END],
	['wan', 'na', `(?=${PY_S})`]
].map(([first, second, after]) =>
	rule(`${WORD_BEGIN}(${caseless(first)})(${caseless(second)})${after}`, ' $1 $2 ')
);

/** NLTKWordTokenizer.CONTRACTIONS3: "'tis" and "'twas". */
const CONTRACTIONS3: Rule[] = ['is', 'was'].map((second) =>
	rule(` (${caseless("'t")})(${caseless(second)})${WORD_END}`, ' $1 $2 ')
);

const SPLIT = new RegExp(`${PY_S}+`, 'u');

function apply(text: string, rules: readonly Rule[]): string {
	return rules.reduce((t, [re, replacement]) => t.replace(re, replacement), text);
}

/** NLTKWordTokenizer.tokenize(sentence) with convert_parentheses False. */
export function treebankWordTokenize(sentence: string): string[] {
	let text = apply(sentence, STARTING_QUOTES);
	text = apply(text, PUNCTUATION);
	text = apply(text, [PARENS_BRACKETS, DOUBLE_DASHES]);
	text = apply(` ${text} `, ENDING_QUOTES);
	text = apply(text, CONTRACTIONS2);
	text = apply(text, CONTRACTIONS3);
	return text.split(SPLIT).filter((t) => t !== '');
}

/**
 * `nltk.word_tokenize(text)`: Punkt sentences (English model), then each sentence's words.
 * `options` choose the NLTK release's quote handling in the sentence split (see PunktOptions).
 */
export function wordTokenize(
	params: PunktParams,
	text: string,
	options: PunktOptions = {}
): string[] {
	return sentTokenize(params, text, options).flatMap((s) => treebankWordTokenize(s));
}
