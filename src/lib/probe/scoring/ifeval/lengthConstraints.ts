/** length_constraints:* — counts of words, sentences and paragraphs. */
import { compare, IfevalArgumentError, intArg, relationArg, stringArg } from './args.ts';
import { countSentences } from './sentences.ts';
import { countWords, splitWhitespace } from './text.ts';
import type { InstructionTable } from './types.ts';

/** Paragraphs divided by a markdown rule "***"; blank edges are ignored, a blank middle fails. */
function countStarParagraphs(response: string): number | null {
	const paragraphs = response.split(/\s?\*\*\*\s?/);
	let count = paragraphs.length;
	for (const [index, paragraph] of paragraphs.entries()) {
		if (paragraph.trim() !== '') continue;
		if (index !== 0 && index !== paragraphs.length - 1) return null;
		count--;
	}
	return count;
}

/** The reference's first word: leading quotes dropped, cut at the first punctuation mark. */
function firstWord(paragraph: string): string {
	const word = (splitWhitespace(paragraph)[0] ?? '').replace(/^'+/, '').replace(/^"+/, '');
	let result = '';
	for (const char of word) {
		if ('.,?!\'"'.includes(char)) break;
		result += char.toLowerCase();
	}
	return result;
}

export const LENGTH_INSTRUCTIONS: InstructionTable = {
	'length_constraints:number_sentences': (kwargs, nlp) => {
		const threshold = intArg(kwargs, 'num_sentences');
		const relation = relationArg(kwargs, 'relation');
		// The reference counts NLTK Punkt sentences; without its data, our approximation.
		const count = nlp ? (text: string) => nlp.sentTokenize(text).length : countSentences;
		return (response) => compare(count(response), relation, threshold);
	},
	'length_constraints:number_words': (kwargs) => {
		const threshold = intArg(kwargs, 'num_words');
		const relation = relationArg(kwargs, 'relation');
		return (response) => compare(countWords(response), relation, threshold);
	},
	'length_constraints:number_paragraphs': (kwargs) => {
		const expected = intArg(kwargs, 'num_paragraphs');
		return (response) => countStarParagraphs(response) === expected;
	},
	'length_constraints:nth_paragraph_first_word': (kwargs) => {
		const expected = intArg(kwargs, 'num_paragraphs');
		const nth = intArg(kwargs, 'nth_paragraph');
		if (nth < 1 || nth > expected) {
			throw new IfevalArgumentError(`nth_paragraph must be in 1..${expected}, got ${nth}`);
		}
		const word = stringArg(kwargs, 'first_word').toLowerCase();
		return (response) => {
			const paragraphs = response.split('\n\n');
			const count = paragraphs.filter((paragraph) => paragraph.trim() !== '').length;
			// Like the reference, the nth slot is counted among all "\n\n" pieces, blanks included.
			const paragraph = nth <= count ? paragraphs[nth - 1].trim() : '';
			return paragraph !== '' && count === expected && firstWord(paragraph) === word;
		};
	}
};
