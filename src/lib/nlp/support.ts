/**
 * What a run's shell does before scoring items that use NLTK's English data: load it, or say why
 * it could not be had. The run goes on either way (the scorer leaves what needs the data
 * unscored), so this never throws but for a cancelled start.
 */
import { createEnglishNlp, parseEnglishResources } from './index.ts';
import { loadEnglishResourceFiles, resourceUrls, type LoadOptions } from './load.ts';
import type { NlpSupport } from './types.ts';

export interface LoadedNlp {
	nlp: NlpSupport;
	/** For the manifest's `nlp_data`: where the data came from, or why it is missing. */
	note: string;
}

/** The manifest's account of the data: every file's URL. */
function nlpSourceNote(options: Pick<LoadOptions, 'nltkDataBase' | 'syllapyBase'>): string {
	return `loaded from ${Object.values(resourceUrls(options)).join(', ')}`;
}

/** @throws the abort when `options.signal` is aborted; any other failure is the result's reason. */
export async function loadNlpSupport(options: LoadOptions): Promise<LoadedNlp> {
	try {
		const files = await loadEnglishResourceFiles(options);
		return { nlp: createEnglishNlp(parseEnglishResources(files)), note: nlpSourceNote(options) };
	} catch (error) {
		if (options.signal?.aborted) throw error;
		const reason = error instanceof Error ? error.message : String(error);
		return { nlp: { unavailable: reason }, note: `not loaded: ${reason}` };
	}
}
