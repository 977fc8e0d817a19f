/**
 * The POS tagger against NLTK 3.10.3 itself: tags of our sentences, of shared fixture texts (by
 * hash), normalize(), and small made-up models tagged by NLTK's own classes (ties, float addition
 * order, code-point ordering). See tests/fixtures/nltk-reference/tagger/PROVENANCE.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalize, parseTagger, posTag } from '../../../src/lib/nlp/tagger.ts';
import { pySplit } from '../../../src/lib/probe/scoring/python.ts';
import { digest, sharedTexts } from './sharedTexts.ts';

const DIR = new URL('../../fixtures/nltk-reference/tagger/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
const NAME = 'averaged_perceptron_tagger_eng/averaged_perceptron_tagger_eng';

interface Expected {
	nltk: string;
	sentences: { tokens: string[]; tags: string[] }[];
	normalize: [string, string][];
	synthetic: {
		name: string;
		model: { weights: object; tagdict: object; classes: string[] };
		tokens: string[];
		tags: string[];
	}[];
}

const expected = JSON.parse(read('expected.json')) as Expected;
const model = parseTagger({
	weights: read(`${NAME}.weights.json`),
	tagdict: read(`${NAME}.tagdict.json`),
	classes: read(`${NAME}.classes.json`)
});
const tagsOf = (tokens: readonly string[]) => posTag(model, tokens).map(([, tag]) => tag);

describe('posTag matches nltk.pos_tag', () => {
	it('on our own sentences', () => {
		expect(expected.sentences.length).toBeGreaterThan(250);
		for (const { tokens, tags } of expected.sentences) {
			expect(tagsOf(tokens), tokens.join(' ')).toEqual(tags);
		}
	});

	it('keeps the tokens as given, in order', () => {
		const tokens = ['Run', 'to', 'the', 'store'];
		expect(posTag(model, tokens).map(([t]) => t)).toEqual(tokens);
		expect(posTag(model, [])).toEqual([]);
	});

	it('on the shared fixture texts split at whitespace (hashes from the reference)', () => {
		const { texts } = JSON.parse(read('shared.json')) as { texts: [string, string][] };
		const byId = new Map(sharedTexts().map((t) => [t.id, t.text]));
		// The first 30 of each source (the weights subset grows with every word: PROVENANCE.md).
		expect(texts.length).toBe(90);
		const wrong = texts.filter(([id, hash]) => {
			const text = byId.get(id);
			if (text === undefined) throw new Error(`no shared text ${id}`);
			return digest(tagsOf(pySplit(text))) !== hash;
		});
		expect(wrong.map(([id]) => id)).toEqual([]);
	});

	it('normalizes words as PerceptronTagger.normalize does', () => {
		for (const [word, norm] of expected.normalize) {
			expect(normalize(word), JSON.stringify(word)).toBe(norm);
		}
	});

	it.each(expected.synthetic.map((c) => [c.name, c] as const))('on a made-up model: %s', (_, c) => {
		const small = parseTagger({
			weights: JSON.stringify(c.model.weights),
			tagdict: JSON.stringify(c.model.tagdict),
			classes: JSON.stringify(c.model.classes)
		});
		expect(posTag(small, c.tokens).map(([, tag]) => tag)).toEqual(c.tags);
	});
});

describe('parseTagger', () => {
	const good = { weights: '{"bias":{"NN":1}}', tagdict: '{"the":"DT"}', classes: '["NN","DT"]' };

	it('names the file that is not JSON', () => {
		expect(() => parseTagger({ ...good, weights: '{"bias":' })).toThrow(
			/averaged_perceptron_tagger_eng\.weights\.json is not valid JSON/
		);
		expect(() => parseTagger({ ...good, tagdict: '' })).toThrow(/tagdict\.json is not valid JSON/);
		expect(() => parseTagger({ ...good, classes: 'NN' })).toThrow(
			/classes\.json is not valid JSON/
		);
	});

	it('names the file of the wrong shape', () => {
		expect(() => parseTagger({ ...good, weights: '[]' })).toThrow(/weights\.json is not an object/);
		expect(() => parseTagger({ ...good, weights: '{"bias":{"NN":"1"}}' })).toThrow(
			/weights\.json has a feature \("bias"\)/
		);
		expect(() => parseTagger({ ...good, tagdict: '{"the":1}' })).toThrow(/tagdict\.json/);
		expect(() => parseTagger({ ...good, classes: '[]' })).toThrow(/classes\.json/);
		expect(() => parseTagger({ ...good, classes: '{"NN":1}' })).toThrow(/classes\.json/);
	});

	it('does not take Object.prototype members for words of the tag dictionary', () => {
		const m = parseTagger(good);
		expect(posTag(m, ['constructor', 'the', '__proto__'])).toEqual([
			['constructor', 'NN'],
			['the', 'DT'],
			['__proto__', 'NN']
		]);
	});
});
