/**
 * NLTK's English NLP as IFBench's reference checkers use it, from the data files fetched at run
 * time: parse the files once, then answer the checkers' questions.
 */
import type { EnglishResourceFiles } from './load.ts';
import { parsePunktTab, sentTokenize } from './punkt.ts';
import { parseStopwords } from './stopwords.ts';
import { countSyllables, parseSyllapyCsv } from './syllables.ts';
import { parseTagger, posTag } from './tagger.ts';
import type { EnglishNlp, EnglishResources } from './types.ts';
import { wordTokenize } from './wordTokenize.ts';

export type { EnglishNlp, EnglishResources } from './types.ts';

/**
 * Parses the fetched files.
 * @throws Error naming the file when one is malformed.
 */
export function parseEnglishResources(files: EnglishResourceFiles): EnglishResources {
	return {
		punkt: parsePunktTab(files.punkt),
		tagger: parseTagger(files.tagger),
		stopwords: parseStopwords(files.stopwords),
		syllables: parseSyllapyCsv(files.syllapy)
	};
}

/** The checkers' view of the resources. Loose scoring asks about the same text many times. */
export function createEnglishNlp(resources: EnglishResources): EnglishNlp {
	const sentences = new Map<string, string[]>();
	const words = new Map<string, string[]>();
	const remember = (cache: Map<string, string[]>, text: string, compute: () => string[]) => {
		let value = cache.get(text);
		if (value === undefined) {
			if (cache.size >= 256) cache.clear();
			value = compute();
			cache.set(text, value);
		}
		return [...value];
	};
	return {
		sentTokenize: (text) => remember(sentences, text, () => sentTokenize(resources.punkt, text)),
		wordTokenize: (text) => remember(words, text, () => wordTokenize(resources.punkt, text)),
		posTag: (tokens) => posTag(resources.tagger, tokens),
		countSyllables: (word) => countSyllables(resources.syllables, word),
		stopwords: resources.stopwords
	};
}
