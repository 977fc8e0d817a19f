/** What storing a study did, in the words and the route the views use. */
import { describe, expect, it } from 'vitest';
import { storedStudyText } from '../../../src/lib/results/storeStudy.ts';
import { studyArrival, studyHref } from '../../../src/lib/routing/routes.ts';

describe('a stored study, said', () => {
	const stored = {
		already: ['a'],
		added: ['b', 'c,2'],
		copies: [{ from: 'c', to: 'c,2' }]
	};

	it('names the runs that were here, those added, and each copy', () => {
		expect(storedStudyText(stored)).toBe(
			'already in this browser (the same runs, kept as stored): a; added: b; c added as c,2 ' +
				'(this browser holds a different run named c, left as it was)'
		);
	});

	it('travels in the study route and back, ids with commas too', () => {
		const route = studyHref(['a', 'b', 'c,2'], stored);
		const params = Object.fromEntries(new URLSearchParams(route.split('?')[1]));
		expect(studyArrival(params)).toEqual(stored);
		expect(
			studyArrival(Object.fromEntries(new URLSearchParams(studyHref(['a']).split('?')[1])))
		).toBeUndefined();
	});
});
