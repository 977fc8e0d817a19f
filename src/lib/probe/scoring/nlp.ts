/**
 * What the scorers need from English NLP, as IFBench's and IFEval's reference checkers get it from
 * NLTK and syllapy. The probe core only names the operations; src/lib/nlp implements them on data
 * fetched at run time, and the shell passes the result in (ProbeContext.nlp).
 */

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

/** What a run's scorer gets: the loaded NLP, or why it could not be loaded. */
export type NlpSupport = EnglishNlp | { unavailable: string };
