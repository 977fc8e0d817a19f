/**
 * What a run without NLTK's English data loses, worded once for every shell (the run view, the
 * CLI). Its own module, free of imports, so the run view gets the words without the NLP code.
 */
export function nlpUnavailableWarning(reason: string): { message: string; consequence: string } {
	return {
		message: `NLTK's English data could not be loaded: ${reason}`,
		consequence:
			"The run goes on: IFBench instructions that need it are unscored, and IFEval's sentence and capital-word counts are approximate."
	};
}
