/**
 * NLTK's averaged perceptron POS tagger (nltk/tag/perceptron.py, `PerceptronTagger.tag` as
 * `nltk.pos_tag(tokens)` calls it: English, no tagset mapping), ported so that it gives the same
 * tags as NLTK on the same model files: the same features in the same order, float sums added in
 * the same order, and ties broken as Python's `max(classes, key=lambda l: (scores[l], l))` does.
 *
 * Pure TypeScript: no DOM, no Node APIs.
 */
import type { TaggerModel } from './types.ts';

const START = ['-START-', '-START2-'];
const END = ['-END-', '-END2-'];

/** The three JSON texts of averaged_perceptron_tagger_eng. */
export interface TaggerFiles {
	weights: string;
	tagdict: string;
	classes: string;
}

function parseJson(text: string, file: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch (err) {
		throw new Error(`The tagger file ${file} is not valid JSON (${(err as Error).message}).`, {
			cause: err
		});
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parse the tagger's three JSON files (as `PerceptronTagger.load_from_json` reads them).
 * @throws Error naming the file when one is not JSON or not of the expected shape.
 */
export function parseTagger(files: TaggerFiles): TaggerModel {
	const weightsFile = 'averaged_perceptron_tagger_eng.weights.json';
	const tagdictFile = 'averaged_perceptron_tagger_eng.tagdict.json';
	const classesFile = 'averaged_perceptron_tagger_eng.classes.json';
	const weights = parseJson(files.weights, weightsFile);
	if (!isPlainObject(weights)) {
		throw new Error(`The tagger file ${weightsFile} is not an object of feature → tag → weight.`);
	}
	for (const [feature, row] of Object.entries(weights)) {
		if (!isPlainObject(row) || !Object.values(row).every((w) => typeof w === 'number')) {
			throw new Error(
				`The tagger file ${weightsFile} has a feature (${JSON.stringify(feature)}) whose ` +
					'weights are not an object of tag → number.'
			);
		}
	}
	const tagdict = parseJson(files.tagdict, tagdictFile);
	if (!isPlainObject(tagdict) || !Object.values(tagdict).every((t) => typeof t === 'string')) {
		throw new Error(`The tagger file ${tagdictFile} is not an object of word → tag.`);
	}
	const classes = parseJson(files.classes, classesFile);
	if (
		!Array.isArray(classes) ||
		classes.length === 0 ||
		!classes.every((c) => typeof c === 'string')
	) {
		throw new Error(`The tagger file ${classesFile} is not a non-empty list of tags.`);
	}
	return {
		weights: weights as TaggerModel['weights'],
		tagdict: tagdict as TaggerModel['tagdict'],
		// load_from_json makes a set of them: duplicates do not matter to the arg-max.
		classes: [...new Set(classes as string[])]
	};
}

/**
 * Code points for which Python's `str.isdigit()` holds but that are not decimal digits (\p{Nd}):
 * superscripts, circled digits and the like (Numeric_Type=Digit, listed from Python 3.11's
 * Unicode 14 database).
 */
const DIGIT_NOT_DECIMAL: readonly [number, number][] = [
	[0xb2, 0xb3],
	[0xb9, 0xb9],
	[0x1369, 0x1371],
	[0x19da, 0x19da],
	[0x2070, 0x2070],
	[0x2074, 0x2079],
	[0x2080, 0x2089],
	[0x2460, 0x2468],
	[0x2474, 0x247c],
	[0x2488, 0x2490],
	[0x24ea, 0x24ea],
	[0x24f5, 0x24fd],
	[0x24ff, 0x24ff],
	[0x2776, 0x277e],
	[0x2780, 0x2788],
	[0x278a, 0x2792],
	[0x10a40, 0x10a43],
	[0x10e60, 0x10e68],
	[0x11052, 0x1105a],
	[0x1f100, 0x1f10a]
];

/** Python's `ch.isdigit()` for one code point. */
function isDigitChar(ch: string): boolean {
	if (/^\p{Nd}$/u.test(ch)) return true;
	const cp = ch.codePointAt(0) ?? -1;
	return DIGIT_NOT_DECIMAL.some(([lo, hi]) => cp >= lo && cp <= hi);
}

/** `PerceptronTagger.normalize`: !HYPHEN, !YEAR, !DIGITS, else lower case. */
export function normalize(word: string): string {
	const chars = Array.from(word);
	if (word.includes('-') && chars[0] !== '-') return '!HYPHEN';
	const allDigits = chars.length > 0 && chars.every(isDigitChar);
	if (allDigits && chars.length === 4) return '!YEAR';
	if (chars.length > 0 && isDigitChar(chars[0])) return '!DIGITS';
	return word.toLowerCase();
}

/** Python's `s[-3:]` (code points, not UTF-16 units). */
function last3(s: string): string {
	return Array.from(s).slice(-3).join('');
}

/** `_get_features`: the feature names in insertion order (each has value 1 in NLTK). */
function features(
	i: number,
	word: string,
	context: readonly string[],
	prev: string,
	prev2: string
): string[] {
	const j = i + START.length;
	const first = Array.from(word)[0] ?? '';
	const names = [
		'bias',
		`i suffix ${last3(word)}`,
		`i pref1 ${first}`,
		`i-1 tag ${prev}`,
		`i-2 tag ${prev2}`,
		`i tag+i-2 tag ${prev} ${prev2}`,
		`i word ${context[j]}`,
		`i-1 tag+i word ${prev} ${context[j]}`,
		`i-1 word ${context[j - 1]}`,
		`i-1 suffix ${last3(context[j - 1])}`,
		`i-2 word ${context[j - 2]}`,
		`i+1 word ${context[j + 1]}`,
		`i+1 suffix ${last3(context[j + 1])}`,
		`i+2 word ${context[j + 2]}`
	];
	// A defaultdict(int) keyed by name: a repeated name adds 1 to the first one's count.
	const counts = new Map<string, number>();
	for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
	return [...counts.keys()].flatMap((name) => Array<string>(counts.get(name) ?? 0).fill(name));
}

/** Python's string ordering: by code point (JS `<` compares UTF-16 units). */
function comparePy(a: string, b: string): number {
	const x = Array.from(a);
	const y = Array.from(b);
	for (let k = 0; k < Math.min(x.length, y.length); k++) {
		const d = (x[k].codePointAt(0) ?? 0) - (y[k].codePointAt(0) ?? 0);
		if (d !== 0) return d;
	}
	return x.length - y.length;
}

/** `AveragedPerceptron.predict`: the arg-max label, ties to the greatest label. */
function predict(model: TaggerModel, feats: readonly string[]): string {
	const scores = new Map<string, number>();
	let k = 0;
	while (k < feats.length) {
		const feat = feats[k];
		let value = 0;
		while (k < feats.length && feats[k] === feat) {
			value++;
			k++;
		}
		if (!Object.hasOwn(model.weights, feat)) continue;
		const row = model.weights[feat];
		for (const label of Object.keys(row)) {
			scores.set(label, (scores.get(label) ?? 0) + value * row[label]);
		}
	}
	let best: string | undefined;
	let bestScore = 0;
	for (const label of model.classes) {
		const score = scores.get(label) ?? 0;
		if (
			best === undefined ||
			score > bestScore ||
			(score === bestScore && comparePy(label, best) > 0)
		) {
			best = label;
			bestScore = score;
		}
	}
	return best ?? '';
}

/** `nltk.pos_tag(tokens)` with the English model: [token, tag] pairs. */
export function posTag(model: TaggerModel, tokens: readonly string[]): [string, string][] {
	const context = [...START, ...tokens.map(normalize), ...END];
	const output: [string, string][] = [];
	let [prev, prev2] = START;
	tokens.forEach((word, i) => {
		const known = Object.hasOwn(model.tagdict, word) ? model.tagdict[word] : '';
		const tag = known !== '' ? known : predict(model, features(i, word, context, prev, prev2));
		output.push([word, tag]);
		prev2 = prev;
		prev = tag;
	});
	return output;
}
