/**
 * The files loadEnglishResourceFiles downloads, in their upstream layout (zips of nltk_data's
 * packages, syllapy's data.csv), built from a fixture folder laid out as NLTK_DATA is, such as
 * tests/fixtures/ifbench-reference/nltk-subset. Paths are those startFakeRaw serves.
 */
import { zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { SYLLAPY_COMMIT } from '../unit/nlp/fakeRawGithub.ts';

const TAGGER = 'averaged_perceptron_tagger_eng/averaged_perceptron_tagger_eng';
const PACKAGES = '/nltk/nltk_data/gh-pages/packages';

export const IFBENCH_NLTK_SUBSET = new URL(
	'../fixtures/ifbench-reference/nltk-subset/',
	import.meta.url
);

export function upstreamFiles(folder: URL = IFBENCH_NLTK_SUBSET): Record<string, Uint8Array> {
	const bytes = (path: string) => new Uint8Array(readFileSync(new URL(path, folder)));
	const members = (root: string, names: string[]) =>
		zipSync(Object.fromEntries(names.map((name) => [name, bytes(`${root}/${name}`)])));
	return {
		[`${PACKAGES}/tokenizers/punkt_tab.zip`]: members(
			'tokenizers',
			['abbrev_types.txt', 'collocations.tab', 'sent_starters.txt', 'ortho_context.tab'].map(
				(f) => `punkt_tab/english/${f}`
			)
		),
		[`${PACKAGES}/taggers/averaged_perceptron_tagger_eng.zip`]: members(
			'taggers',
			['weights', 'tagdict', 'classes'].map((part) => `${TAGGER}.${part}.json`)
		),
		[`${PACKAGES}/corpora/stopwords.zip`]: members('corpora', ['stopwords/english']),
		[`/mholtzscher/syllapy/${SYLLAPY_COMMIT}/syllapy/data.csv`]: bytes('syllapy/data.csv')
	};
}
