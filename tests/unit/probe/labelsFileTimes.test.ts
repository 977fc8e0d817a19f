/**
 * A labels file's created_at is checked: an ISO time, not ahead of this clock by more than a small
 * skew. Before: a forged "9999-12-31" was read, and since an annotator's latest label counts it
 * pinned that label for good, above the teacher's later one.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, labelsFromFile, labelsToFile } from '../../../src/lib/probe/labelsFile.ts';
import { ExchangeError } from '../../../src/lib/probe/exchange.ts';

const NOW = Date.parse('2026-11-28T01:00:00Z');
const file = (...created: string[]) =>
	labelsToFile({
		run_id: 'run-a',
		annotations: created.map((created_at, i) => ({
			run_id: 'run-a',
			key: `k${i}`,
			annotator: 'student',
			label: 'genuine_followup',
			created_at
		}))
	});

function problems(text: string): string[] {
	try {
		labelsFromFile(text, () => NOW);
	} catch (e) {
		if (e instanceof ExchangeError) return e.problems;
		throw e;
	}
	return [];
}

describe('the times in a labels file', () => {
	it('accepts ISO times up to now and a little ahead (another clock)', () => {
		const ahead = new Date(NOW + CLOCK_SKEW_MS - 1000).toISOString();
		const r = labelsFromFile(
			file('2026-11-27T09:30:00.000Z', '2026-11-28T02:00:00+01:00', ahead),
			() => NOW
		);
		expect(r.annotations).toHaveLength(3);
	});

	it('refuses a time in the future, naming the line', () => {
		expect(problems(file('2026-11-27T09:30:00Z', '9999-12-31T00:00:00Z'))).toEqual([
			'line 3: created_at "9999-12-31T00:00:00Z" is in the future; a label\'s time is when it was given'
		]);
	});

	it('refuses a time that is not ISO 8601', () => {
		expect(problems(file('9999-12-31', 'yesterday', '2026-13-45T99:99:00Z'))).toEqual([
			'line 2: created_at "9999-12-31" is not an ISO 8601 time (like 2026-01-31T12:00:00Z)',
			'line 3: created_at "yesterday" is not an ISO 8601 time (like 2026-01-31T12:00:00Z)',
			'line 4: created_at "2026-13-45T99:99:00Z" is not an ISO 8601 time (like 2026-01-31T12:00:00Z)'
		]);
	});
});
