/**
 * Punkt sentence splitting with NLTK's English model: `nltk.sent_tokenize(text)`.
 *
 * Our own TypeScript; its behaviour follows NLTK 3.10.3's punkt.py (PunktSentenceTokenizer with
 * PunktLanguageVars, realign_boundaries on) and tabdata.py (how the punkt_tab files are read).
 * NLTK is Apache-2.0. Cross-checked against the real NLTK on the cases in
 * tests/fixtures/nltk-reference/punkt/.
 *
 * Python's `re` and `str` semantics are reproduced where they differ from JavaScript's:
 * Unicode `\s`, `\w`, `\d`, `\b`; `$` that also matches before a final "\n"; `str.isupper()`;
 * `str.strip()`. Python indexes strings by code point and JavaScript by UTF-16 unit: every
 * regular expression here uses the `u` flag and every index is only used to slice the same
 * JavaScript string, so the slices are the same strings. Character classes follow the Unicode
 * version of the JavaScript engine (Python 3.11 has Unicode 14): they differ only on characters
 * assigned since.
 *
 * Pure: no DOM, no Node APIs.
 */
import type { PunktParams } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Python `re` building blocks (as RegExp source for the `u` flag)
// ---------------------------------------------------------------------------------------------

/** Python's Unicode whitespace (`\s`, `str.isspace()`), the inside of a character class. */
const SPACE_CHARS =
	'\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python `\s`. */
export const PY_S = `[${SPACE_CHARS}]`;
/** Python `\S`. */
export const PY_NS = `[^${SPACE_CHARS}]`;
/** Python `\w`: letters, numbers and "_" (not combining marks). */
export const PY_W = '[\\p{L}\\p{N}_]';
/** Python `\d`: decimal digits. */
export const PY_D = '\\p{Nd}';
/** Python `[^\W\d]`: `\w` without the decimal digits. */
const PY_ALPHA = '[\\p{L}\\p{Nl}\\p{No}_]';
/** Python `$` without re.MULTILINE: the end, or just before a final "\n". */
export const PY_END = '(?=\\n?$)';

const SPACE_RE = new RegExp(PY_S, 'u');

/** Python `str.isspace()` for one UTF-16 unit (all of Python's whitespace is in the BMP). */
function isPySpace(code: number): boolean {
	return SPACE_RE.test(String.fromCharCode(code));
}

/** Python `str.rstrip()`. */
export function rstripPy(text: string): string {
	let end = text.length;
	while (end > 0 && isPySpace(text.charCodeAt(end - 1))) end--;
	return text.slice(0, end);
}

/** Python `str.strip()`. */
function stripPy(text: string): string {
	let start = 0;
	while (start < text.length && isPySpace(text.charCodeAt(start))) start++;
	return rstripPy(text.slice(start));
}

// ---------------------------------------------------------------------------------------------
// The punkt_tab files
// ---------------------------------------------------------------------------------------------

/** The four files of punkt_tab/<language>/, as text. */
export interface PunktTabFiles {
	abbrevTypes: string;
	collocations: string;
	sentStarters: string;
	orthoContext: string;
}

/** Where Python's `str.splitlines()` ends a line ("\r\n" counts as one). */
// eslint-disable-next-line no-control-regex -- Python also breaks lines at \x1c–\x1e
const LINE_BREAK = /\r\n|[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/g;

/**
 * The lines NLTK's reader yields for a file, each through tabdata's `rm_nl`: the file is split
 * as Python's `str.splitlines(True)` splits (SeekableUnicodeStreamReader.readline), and only a
 * final "\n" is removed from each line, so "\r\n" leaves a "\r" behind. A leading byte-order
 * mark is dropped, as NLTK's reader drops it. No final line break means no empty last line.
 */
function tabLines(text: string): string[] {
	const body = text.startsWith('\ufeff') ? text.slice(1) : text;
	const lines: string[] = [];
	let start = 0;
	for (const m of body.matchAll(LINE_BREAK)) {
		const end = m.index + m[0].length;
		const line = body.slice(start, end);
		lines.push(line.endsWith('\n') ? line.slice(0, -1) : line);
		start = end;
	}
	if (start < body.length) lines.push(body.slice(start));
	return lines;
}

const PY_INT = /^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u;
const ND = /\p{Nd}/u;

/** The value 0–9 of a decimal digit: its place in the run of ten it belongs to. */
function digitValue(cp: number): number {
	if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
	let start = cp;
	while (ND.test(String.fromCodePoint(start - 1))) start--;
	return (cp - start) % 10;
}

/**
 * Python's `int(text)`: surrounding whitespace, a sign, "_" between digits, any decimal digits.
 * The result keeps the low 32 bits exactly (all Punkt reads of it are flag tests).
 */
function pyInt(text: string): number | undefined {
	const t = stripPy(text);
	if (!PY_INT.test(t)) return undefined;
	let value = 0n;
	for (const ch of t) {
		if (ch === '+' || ch === '-' || ch === '_') continue;
		value = value * 10n + BigInt(digitValue(ch.codePointAt(0) ?? 0x30));
	}
	if (t.startsWith('-')) value = -value;
	const exact = value < 2n ** 53n && value > -(2n ** 53n);
	return Number(exact ? value : BigInt.asIntN(32, value));
}

/**
 * The English Punkt model from its punkt_tab files: what NLTK's `load_punkt_params` does with
 * `PunktDecoder` (txt2set, tab2tups, tab2intdict). Lines keep what `rm_nl` leaves (a "\r" of
 * CRLF files stays, and then never matches, as in NLTK); blank lines of the word lists are
 * kept as "". A collocations line that is not two tab-separated fields becomes a tuple NLTK can
 * never look up; it is left out here. An ortho_context line that is not "type<TAB>integer"
 * makes NLTK raise; here it throws an Error naming the file and line. Empty files are empty.
 */
export function parsePunktTab(files: PunktTabFiles): PunktParams {
	const collocations = new Set<string>();
	for (const line of tabLines(files.collocations)) {
		if (line.split('\t').length === 2) collocations.add(line);
	}
	const orthoContext = new Map<string, number>();
	tabLines(files.orthoContext).forEach((line, i) => {
		const fields = line.split('\t');
		const value = fields.length === 2 ? pyInt(fields[1]) : undefined;
		if (value === undefined) {
			throw new Error(
				`ortho_context.tab line ${i + 1}: expected "type<TAB>integer", got ${JSON.stringify(line)}`
			);
		}
		orthoContext.set(fields[0], value);
	});
	return {
		abbrevTypes: new Set(tabLines(files.abbrevTypes)),
		collocations,
		sentStarters: new Set(tabLines(files.sentStarters)),
		orthoContext
	};
}

// ---------------------------------------------------------------------------------------------
// Tokens (PunktToken) and PunktLanguageVars' regular expressions
// ---------------------------------------------------------------------------------------------

/** The curly quotes and guillemets NLTK PR #3728 added to Punkt's two boundary classes. */
const CURLY_QUOTES = '\\u2018\\u2019\\u201c\\u201d\\xab\\xbb';
/** PunktLanguageVars._re_multi_char_punct: dashes and ellipses. */
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${PY_S}){2,}\\.)`;
/** PunktLanguageVars._re_word_start: characters that cannot start a word. */
const WORD_START = '[^("`{\\[:;&#*@)}\\]\\-,]';

/** Which NLTK release's handling of curly quotes to follow. */
export interface PunktOptions {
	/**
	 * true (the default): curly quotes and guillemets (‘ ’ “ ” « ») can follow a sentence end and
	 * are realigned onto it, as in NLTK 3.10.3 (since PR #3728, merged 2026-07-31). false: as in
	 * NLTK 3.9.2 and earlier (the version IFBench pins), where only ASCII quotes and brackets do,
	 * so '“First.” Next.' stays one sentence.
	 */
	curlyQuotes?: boolean;
}

/** PunktLanguageVars' regular expressions, for one of the two quote handlings. */
interface LanguageVars {
	/** _word_tokenizer_re: words with punctuation other than "." split off. */
	word: RegExp;
	/**
	 * period_context_re: a possible sentence end, then (in a lookahead) either other punctuation
	 * or whitespace and the next token. Groups: 1 after_tok, 2 next_tok.
	 */
	periodContext: RegExp;
	/** re_boundary_realignment (re.MULTILINE, used with `match`). */
	boundaryRealignment: RegExp;
}

function languageVars(curlyQuotes: boolean): LanguageVars {
	const quotes = curlyQuotes ? CURLY_QUOTES : '';
	// _re_non_word_chars: characters that cannot appear within words.
	const nonWord = `[)";}\\]*:@'({[${quotes}?!]`;
	return {
		word: new RegExp(
			`${MULTI_CHAR}|(?=${WORD_START})${PY_NS}+?(?=${PY_S}|${PY_END}|${nonWord}|${MULTI_CHAR}|,(?=${PY_END}|${PY_S}|${nonWord}|${MULTI_CHAR}))|${PY_NS}`,
			'gu'
		),
		periodContext: new RegExp(`[.?!](?=(${nonWord}|${PY_S}+(${PY_NS}+)))`, 'gu'),
		boundaryRealignment: new RegExp(`^["')\\]}${quotes}]+?(?:${PY_S}+|(?=--)|(?=\\n|$))`, 'u')
	};
}

const NLTK_3_10 = languageVars(true);
const NLTK_3_9 = languageVars(false);

const RE_ELLIPSIS = /^\.\.+$/u;
const RE_NUMERIC = new RegExp(`^-?[.,]?${PY_D}[${PY_D},.\\-]*\\.?${PY_END}`, 'u');
const RE_INITIAL = new RegExp(`^${PY_ALPHA}\\.${PY_END}`, 'u');
const FIRST_UPPER = /^\p{Uppercase}/u;
const FIRST_LOWER = /^\p{Lowercase}/u;

/** Orthographic context flags (punkt.py's _ORTHO_*). */
const ORTHO_BEG_UC = 1 << 1;
const ORTHO_MID_UC = 1 << 2;
const ORTHO_UNK_UC = 1 << 3;
const ORTHO_BEG_LC = 1 << 4;
const ORTHO_MID_LC = 1 << 5;
const ORTHO_UNK_LC = 1 << 6;
const ORTHO_UC = ORTHO_BEG_UC + ORTHO_MID_UC + ORTHO_UNK_UC;
const ORTHO_LC = ORTHO_BEG_LC + ORTHO_MID_LC + ORTHO_UNK_LC;

/** PunktSentenceTokenizer.PUNCTUATION: tokens that never start a sentence. */
const PUNCTUATION = new Set([';', ':', ',', '.', '!', '?']);
/** PunktLanguageVars.sent_end_chars. */
const SENT_END_CHARS = new Set(['.', '?', '!']);

/** PunktToken: a token with its type and annotations. */
interface Token {
	tok: string;
	/** Lower-cased, numbers as "##number##" (PunktToken._get_type). */
	type: string;
	periodFinal: boolean;
	sentbreak: boolean;
	abbr: boolean;
	ellipsis: boolean;
}

function makeToken(tok: string): Token {
	const lower = tok.toLowerCase();
	return {
		tok,
		type: RE_NUMERIC.test(lower) ? lower.replace(RE_NUMERIC, '##number##') : lower,
		periodFinal: tok.endsWith('.'),
		sentbreak: false,
		abbr: false,
		ellipsis: false
	};
}

/** PunktToken.type_no_period. */
function typeNoPeriod(type: string): string {
	return type.length > 1 && type.endsWith('.') ? type.slice(0, -1) : type;
}

/** PunktToken.type_no_sentperiod. */
function typeNoSentperiod(token: Token): string {
	return token.sentbreak ? typeNoPeriod(token.type) : token.type;
}

/** PunktBaseClass._tokenize_words: each non-blank line's words (line starts are not needed). */
function tokenizeWords(vars: LanguageVars, text: string): Token[] {
	const tokens: Token[] = [];
	for (const line of text.split('\n')) {
		if (stripPy(line) === '') continue;
		for (const m of line.matchAll(vars.word)) tokens.push(makeToken(m[0]));
	}
	return tokens;
}

// ---------------------------------------------------------------------------------------------
// Annotation (PunktBaseClass._first_pass_annotation, PunktSentenceTokenizer._second_pass_annotation)
// ---------------------------------------------------------------------------------------------

/** PunktBaseClass._first_pass_annotation: decisions from the token's type alone. */
function firstPass(params: PunktParams, token: Token): void {
	const tok = token.tok;
	if (SENT_END_CHARS.has(tok)) {
		token.sentbreak = true;
	} else if (RE_ELLIPSIS.test(tok)) {
		token.ellipsis = true;
	} else if (token.periodFinal && !tok.endsWith('..')) {
		const base = tok.slice(0, -1).toLowerCase();
		const lastPart = base.slice(base.lastIndexOf('-') + 1);
		if (params.abbrevTypes.has(base) || params.abbrevTypes.has(lastPart)) {
			token.abbr = true;
		} else {
			token.sentbreak = true;
		}
	}
}

/** PunktSentenceTokenizer._ortho_heuristic: does this token start a sentence? */
function orthoHeuristic(params: PunktParams, token: Token): boolean | 'unknown' {
	if (PUNCTUATION.has(token.tok)) return false;
	const context = params.orthoContext.get(typeNoSentperiod(token)) ?? 0;
	const firstUpper = FIRST_UPPER.test(token.tok);
	if (firstUpper && context & ORTHO_LC && !(context & ORTHO_MID_UC)) return true;
	if (FIRST_LOWER.test(token.tok) && (context & ORTHO_UC || !(context & ORTHO_BEG_LC))) {
		return false;
	}
	return 'unknown';
}

/**
 * PunktSentenceTokenizer._second_pass_annotation: revise the decision on `token` from the
 * next token (collocations, the orthographic heuristic, frequent sentence starters, initials
 * and numbers). `next` still has only its first-pass annotation, as in NLTK's pipeline.
 */
function secondPass(params: PunktParams, token: Token, next: Token): void {
	if (!token.periodFinal) return;
	const typ = typeNoPeriod(token.type);
	const nextTyp = typeNoSentperiod(next);
	const isInitial = RE_INITIAL.test(token.tok);

	if (params.collocations.has(`${typ}\t${nextTyp}`)) {
		token.sentbreak = false;
		token.abbr = true;
		return;
	}
	if ((token.abbr || token.ellipsis) && !isInitial) {
		if (orthoHeuristic(params, next) === true) {
			token.sentbreak = true;
			return;
		}
		if (FIRST_UPPER.test(next.tok) && params.sentStarters.has(nextTyp)) {
			token.sentbreak = true;
			return;
		}
	}
	if (isInitial || typ === '##number##') {
		const isSentStarter = orthoHeuristic(params, next);
		if (isSentStarter === false) {
			token.sentbreak = false;
			token.abbr = true;
			return;
		}
		if (
			isSentStarter === 'unknown' &&
			isInitial &&
			FIRST_UPPER.test(next.tok) &&
			!((params.orthoContext.get(nextTyp) ?? 0) & ORTHO_LC)
		) {
			token.sentbreak = false;
			token.abbr = true;
		}
	}
}

/** PunktSentenceTokenizer.text_contains_sentbreak: a sentence break before the last token. */
function textContainsSentbreak(params: PunktParams, vars: LanguageVars, text: string): boolean {
	const tokens = tokenizeWords(vars, text);
	for (const token of tokens) firstPass(params, token);
	for (let i = 0; i + 1 < tokens.length; i++) {
		secondPass(params, tokens[i], tokens[i + 1]);
		if (tokens[i].sentbreak) return true;
	}
	return false;
}

// ---------------------------------------------------------------------------------------------
// Sentence spans
// ---------------------------------------------------------------------------------------------

/** A span [start, stop) of the text, in UTF-16 units. */
type Span = [number, number];

/** Python's `string.whitespace`: the ASCII whitespace _get_last_whitespace_index looks for. */
function isAsciiSpace(code: number): boolean {
	return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

interface EndContext {
	match: RegExpExecArray;
	context: string;
}

/**
 * PunktSentenceTokenizer._match_potential_end_contexts: each possible sentence end with the
 * word before it and the text after; of runs like "!!!" only the last is kept.
 */
function matchPotentialEndContexts(vars: LanguageVars, text: string): EndContext[] {
	const out: EndContext[] = [];
	let previousStart = 0;
	let previousStop = 0;
	let previous: RegExpExecArray | undefined;
	const contextOf = (m: RegExpExecArray, start: number, stop: number): string =>
		text.slice(start, stop) + m[0] + m[1];
	const periodContext = vars.periodContext;
	periodContext.lastIndex = 0;
	for (let m = periodContext.exec(text); m; m = periodContext.exec(text)) {
		// _get_last_whitespace_index on text[previousStop:m.index] (0 also when none is found).
		let lastSpace = 0;
		for (let i = m.index - 1; i >= previousStop; i--) {
			if (isAsciiSpace(text.charCodeAt(i))) {
				lastSpace = i - previousStop;
				break;
			}
		}
		const wordStart = lastSpace ? lastSpace + previousStop + 1 : previousStart;
		if (previous && previousStop <= wordStart) {
			out.push({ match: previous, context: contextOf(previous, previousStart, previousStop) });
		}
		previous = m;
		previousStart = wordStart;
		previousStop = m.index;
	}
	if (previous) {
		out.push({ match: previous, context: contextOf(previous, previousStart, previousStop) });
	}
	return out;
}

/** PunktSentenceTokenizer._slices_from_text. */
function slicesFromText(params: PunktParams, vars: LanguageVars, text: string): Span[] {
	const spans: Span[] = [];
	let lastBreak = 0;
	for (const { match, context } of matchPotentialEndContexts(vars, text)) {
		if (!textContainsSentbreak(params, vars, context)) continue;
		const end = match.index + match[0].length;
		spans.push([lastBreak, end]);
		const nextTok = match[2];
		// The next sentence starts at the next token, or at the punctuation that follows.
		lastBreak = nextTok ? end + match[1].length - nextTok.length : end;
	}
	spans.push([lastBreak, rstripPy(text).length]);
	return spans;
}

/** PunktSentenceTokenizer._realign_boundaries: closing quotes and brackets join the sentence. */
function realignBoundaries(vars: LanguageVars, text: string, spans: Span[]): Span[] {
	const out: Span[] = [];
	let realign = 0;
	for (let i = 0; i < spans.length; i++) {
		const first: Span = [spans[i][0] + realign, spans[i][1]];
		const second = spans[i + 1];
		const nonEmpty = text.slice(first[0], first[1]) !== '';
		if (!second) {
			if (nonEmpty) out.push(first);
			continue;
		}
		const m = vars.boundaryRealignment.exec(text.slice(second[0], second[1]));
		if (m) {
			out.push([first[0], second[0] + rstripPy(m[0]).length]);
			realign = m[0].length;
		} else {
			realign = 0;
			if (nonEmpty) out.push(first);
		}
	}
	return out;
}

/**
 * `nltk.sent_tokenize(text)` for English: PunktSentenceTokenizer.tokenize(text) with
 * realign_boundaries, given the English model's parameters.
 */
export function sentTokenize(
	params: PunktParams,
	text: string,
	options: PunktOptions = {}
): string[] {
	const vars = options.curlyQuotes === false ? NLTK_3_9 : NLTK_3_10;
	return realignBoundaries(vars, text, slicesFromText(params, vars, text)).map(([start, stop]) =>
		text.slice(start, stop)
	);
}
