/**
 * The sample view shows the verdict the record counts with, and flags a conflict: a failure
 * category the judge nevertheless called genuine, kept as written and counted as not genuine.
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import SampleDetail from '../../../src/components/results/SampleDetail.svelte';
import { makeRecord } from '../../helpers/factories.ts';

afterEach(() => cleanup());

describe('sample detail: the verdict', () => {
	it('flags a failure category with a genuine verdict as a conflict, counted as not genuine', () => {
		render(SampleDetail, {
			record: makeRecord({
				label: 'prompt_restatement',
				judge_label: 'prompt_restatement',
				verdict: 'genuine',
				label_source: 'judge'
			})
		});
		const verdict = screen.getByTestId('detail-verdict');
		expect(verdict.textContent).toMatch(/^\s*not a genuine follow-up/);
		expect(screen.getByTestId('verdict-conflict').textContent).toMatch(
			/Conflict: the judge chose the failure category Previous-turn restatement and the verdict genuine\..*counts as not genuine/
		);
	});

	it.each([
		['genuine_followup', 'genuine', /^\s*genuine follow-up/],
		['genuine_followup', 'not_genuine', /^\s*not a genuine follow-up/],
		['degenerate', 'not_genuine', /^\s*not a genuine follow-up/]
	] as const)('shows %s judged %s without a conflict', (label, verdict, words) => {
		render(SampleDetail, { record: makeRecord({ label, judge_label: label, verdict }) });
		expect(screen.getByTestId('detail-verdict').textContent).toMatch(words);
		expect(screen.queryByTestId('verdict-conflict')).toBeNull();
	});
});
