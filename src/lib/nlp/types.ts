/**
 * English NLP resources that IFBench's reference checkers take from NLTK and syllapy: the Punkt
 * sentence model, the NLTK word tokenizer, the averaged-perceptron POS tagger, NLTK's English
 * stop words and syllapy's syllable counts. The data is not shipped with the app: it is fetched
 * at run time from where the reference's own users get it (load.ts) and parsed into these shapes.
 *
 * Pure TypeScript: no DOM, no Node APIs. The operations the scorers call (EnglishNlp) are the probe
 * core's interface (src/lib/probe/scoring/nlp.ts).
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

export type { EnglishNlp, NlpSupport } from '../probe/scoring/nlp.ts';
