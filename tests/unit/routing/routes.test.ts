import { describe, expect, it } from 'vitest';
import { href, parseHash } from '../../../src/lib/routing/routes.ts';

describe('hash routes', () => {
	it.each([
		['', { view: 'home', id: undefined, params: {} }],
		['#/', { view: 'home', id: undefined, params: {} }],
		['#/runs', { view: 'runs', id: undefined, params: {} }],
		['#/results/run-1', { view: 'results', id: 'run-1', params: {} }],
		['#/results/run%201?compare=b', { view: 'results', id: 'run 1', params: { compare: 'b' } }],
		['#/nowhere/x', { view: 'home', id: undefined, params: {} }],
		// Malformed deep links fall back to set-up instead of throwing at app start.
		['#/run/%E0%A4%A', { view: 'setup', params: {} }],
		['#/results/%', { view: 'setup', params: {} }],
		['#/%E0%A4%A/x', { view: 'setup', params: {} }],
		['#/results/%ZZ?compare=b', { view: 'setup', params: {} }]
	])('parses %s', (hash, expected) => {
		expect(parseHash(hash)).toEqual(expected);
	});

	it('keeps the view when only the query has a bad escape (the browser replaces it)', () => {
		const route = parseHash('#/results/run-1?compare=%E0%A4%A');
		expect(route).toMatchObject({ view: 'results', id: 'run-1' });
		expect(typeof route.params.compare).toBe('string');
	});

	it('keeps an unencoded link after url= whole: its "?", "&" and "+" as written', () => {
		const raw = 'https://host.test/runs/a+b.run.jsonl?sig=x+y&exp=1';
		expect(parseHash(`#/open?url=${raw}`).params.url).toBe(raw);
		// And a link Share made (encoded) still opens the same file.
		expect(parseHash(href('open', undefined, { url: raw })).params.url).toBe(raw);
	});

	it('round-trips a link through href and parseHash', () => {
		const link = href('annotate', 'run/with slash', { annotator: 'ana' });
		expect(parseHash(link)).toEqual({
			view: 'annotate',
			id: 'run/with slash',
			params: { annotator: 'ana' }
		});
	});
});
