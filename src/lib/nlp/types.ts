/**
 * English NLP resources that IFBench's reference checkers take from NLTK and syllapy: the Punkt
 * sentence model, the NLTK word tokenizer, the averaged-perceptron POS tagger, NLTK's English
 * stop words and syllapy's syllable counts. The data is not shipped with the app: it is fetched
 * at run time from where the reference's own users get it (load.ts) and parsed into these shapes.
 *
 * Pure TypeScript: no DOM, no Node APIs.
 */

/** Punkt's learned parameters (NLTK `PunktParameters`, the files of punkt_tab/english/). */
export interface PunktParams {
	/** abbrev_types.txt: lower-cased abbreviation types without their final period. */
	abbrevTypes: ReadonlySet<string>;
	/** collocations.tab: pairs of types, kept as `${first}\t${second}`. */
	collocations: ReadonlySet<string>;
	/** sent_starters.txt: lower-cased types seen starting sentences. */
	sentStarters: ReadonlySet<string>;
	/** ortho_context.tab: type → bit flags of the cases it was seen in (Punkt's _ORTHO_* flags). */
	orthoContext: ReadonlyMap<string, number>;
}

/** NLTK's averaged perceptron tagger (averaged_perceptron_tagger_eng's three JSON files). */
export interface TaggerModel {
	/** feature → tag → weight. */
	weights: Readonly<Record<string, Readonly<Record<string, number>>>>;
	/** Frequent unambiguous words → their tag. */
	tagdict: Readonly<Record<string, string>>;
	classes: readonly string[];
}

/** Everything the IFBench checkers need, parsed. */
export interface EnglishResources {
	punkt: PunktParams;
	tagger: TaggerModel;
	/** NLTK's stopwords/english, one lower-case word per entry. */
	stopwords: ReadonlySet<string>;
	/** syllapy's data.csv: word → syllable count. */
	syllables: ReadonlyMap<string, number>;
}

/** The operations the checkers call, each matching its Python counterpart exactly. */
export interface EnglishNlp {
	/** `nltk.sent_tokenize(text)` (Punkt, English). */
	sentTokenize(text: string): string[];
	/** `nltk.word_tokenize(text)`: Punkt sentences, then NLTK's Treebank-style word tokenizer. */
	wordTokenize(text: string): string[];
	/** `nltk.pos_tag(tokens)`: [token, tag] pairs. */
	posTag(tokens: readonly string[]): [string, string][];
	/** `syllapy.count(word)`. */
	countSyllables(word: string): number;
	/** NLTK's English stop words (`nltk.corpus.stopwords.words('english')`). */
	stopwords: ReadonlySet<string>;
}
