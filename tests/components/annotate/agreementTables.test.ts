/**
 * The agreement tab's tables: the confusion matrix keeps its grid with letter headers whose full
 * label names are read out and listed in a key; precision and recall and the judge modes are
 * data tables whose cells carry their column's name for a phone's card.
 */
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import ConfusionMatrix from '../../../src/components/annotate/ConfusionMatrix.svelte';
import ModeAdvice from '../../../src/components/annotate/ModeAdvice.svelte';
import { categoryTitle } from '../../../src/lib/annotate/report.ts';
import type { ModeScore } from '../../../src/lib/annotate/modes.ts';
import { LABELS } from '../../../src/lib/probe/types.ts';
import { cohenKappa } from '../../../src/lib/stats/kappa.ts';

afterEach(cleanup);

// Every label is a category; only three are used, so the matrix shows three.
const human = ['genuine_followup', 'genuine_followup', 'meta_planning', 'degenerate', 'degenerate'];
const judge = [
	'genuine_followup',
	'meta_planning',
	'meta_planning',
	'degenerate',
	'genuine_followup'
];
const agreement = cohenKappa(human, judge, { categories: [...LABELS] });

describe('the agreement tables', () => {
	it('letters the matrix headers in order, names each label for screen readers and in the key', () => {
		render(ConfusionMatrix, { agreement, rowsTitle: 'ana', colsTitle: 'LLM judge' });
		const matrix = screen.getByTestId('confusion-table');
		const used = agreement.categories.filter((c) => human.includes(c) || judge.includes(c));
		const names = used.map(categoryTitle);
		const cols = within(matrix).getAllByRole('columnheader');
		expect(cols.map((c) => c.querySelector('abbr')?.textContent)).toEqual(['A', 'B', 'C']);
		expect(cols.map((c) => c.querySelector('abbr')?.getAttribute('title'))).toEqual(names);
		expect(cols.map((c) => c.querySelector('.sr-only')?.textContent)).toEqual(names);
		const rows = within(matrix).getAllByRole('rowheader');
		expect(rows.map((r) => r.querySelector('.sr-only')?.textContent)).toEqual(names);
		expect(rows.map((r) => r.querySelector('.name')?.textContent)).toEqual(names);
		const key = screen.getByTestId('confusion-key');
		expect([...key.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['A', 'B', 'C']);
		expect([...key.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(names);
		// The diagonal counts agreement: one genuine, one meta-planning and one degenerate item.
		const diagonal = [...matrix.querySelectorAll('td.diagonal')].map((d) => d.textContent?.trim());
		expect(diagonal.map(Number).reduce((s, x) => s + x, 0)).toBe(3);
	});

	it('lists precision, recall and support per used label, each cell named for its card', () => {
		render(ConfusionMatrix, { agreement, rowsTitle: 'ana', colsTitle: 'LLM judge' });
		const table = screen.getByTestId('precision-recall');
		const rows = within(table).getAllByRole('row').slice(1);
		expect(rows).toHaveLength(3);
		const genuine = rows.find(
			(r) => r.querySelector('th')?.textContent === categoryTitle('genuine_followup')
		);
		const cells = [...(genuine?.querySelectorAll('td') ?? [])];
		expect(cells.map((c) => c.getAttribute('data-label'))).toEqual([
			'Precision',
			'Recall',
			'Support'
		]);
		// The judge called two items genuine, one of them ana's; ana's two genuine, one found.
		expect(cells.map((c) => c.textContent?.trim())).toEqual(['0.50', '0.50', '2']);
	});

	it("shows each mode's κ with its interval in a table", () => {
		const score = (mode: ModeScore['mode'], title: string, kappa: number): ModeScore => ({
			mode,
			labeler: mode,
			title,
			items: 12,
			n: 14,
			kappa,
			lo: kappa - 0.2,
			hi: kappa + 0.1
		});
		const scores = [score('hybrid', 'hybrid', 0.61), score('rules', 'rules only', 0.3)];
		render(ModeAdvice, { scores, advice: 'Trust the hybrid labels.' });
		const rows = within(screen.getByTestId('mode-scores')).getAllByRole('row').slice(1);
		expect(rows.map((r) => r.querySelector('th[scope="row"]')?.textContent)).toEqual([
			'hybrid',
			'rules only'
		]);
		const kappa = rows[0].querySelector('td');
		expect(kappa?.getAttribute('data-label')).toBe('κ [95% CI]');
		expect(kappa?.textContent).toBe('0.61 [0.41, 0.71]');
	});
});
