/**
 * EnglishNlp built from a fixture folder laid out as NLTK_DATA is (tokenizers/punkt_tab/english,
 * taggers/averaged_perceptron_tagger_eng, corpora/stopwords/english) plus syllapy/data.csv. A
 * part the folder lacks is empty, for tests whose reference never consulted it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createEnglishNlp } from '../../src/lib/nlp/index.ts';
import { parsePunktTab } from '../../src/lib/nlp/punkt.ts';
import { parseStopwords } from '../../src/lib/nlp/stopwords.ts';
import { parseSyllapyCsv } from '../../src/lib/nlp/syllables.ts';
import { parseTagger } from '../../src/lib/nlp/tagger.ts';
import type { EnglishNlp } from '../../src/lib/nlp/types.ts';

const TAGGER = 'taggers/averaged_perceptron_tagger_eng/averaged_perceptron_tagger_eng';

export function nlpFromFixture(folder: URL): EnglishNlp {
	const read = (path: string) => readFileSync(new URL(path, folder), 'utf8');
	const has = (path: string) => existsSync(new URL(path, folder));
	const punkt = (file: string) => read(`tokenizers/punkt_tab/english/${file}`);
	return createEnglishNlp({
		punkt: parsePunktTab({
			abbrevTypes: punkt('abbrev_types.txt'),
			collocations: punkt('collocations.tab'),
			sentStarters: punkt('sent_starters.txt'),
			orthoContext: punkt('ortho_context.tab')
		}),
		tagger: has(`${TAGGER}.weights.json`)
			? parseTagger({
					weights: read(`${TAGGER}.weights.json`),
					tagdict: read(`${TAGGER}.tagdict.json`),
					classes: read(`${TAGGER}.classes.json`)
				})
			: { weights: {}, tagdict: {}, classes: [] },
		stopwords: has('corpora/stopwords/english')
			? parseStopwords(read('corpora/stopwords/english'))
			: new Set(),
		syllables: has('syllapy/data.csv') ? parseSyllapyCsv(read('syllapy/data.csv')) : new Map()
	});
}
