/**
 * The one data table behind Results, Study and Runs, seen through the study table (columns shared
 * with the results table, a row header, its own effect columns) and directly (a cell snippet, the
 * empty line).
 */
import { cleanup, fireEvent, render, within } from '@testing-library/svelte';
import { createRawSnippet, type Component } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import DataTable from '../../../src/components/DataTable.svelte';
import StudyTable from '../../../src/components/study/StudyTable.svelte';
import type { Column } from '../../../src/components/dataTable.ts';
import { NO_RATE, NO_RATE_REASON } from '../../../src/lib/results/plainWords.ts';
import { study } from '../../../src/lib/results/study.ts';
import { percent, points } from '../../../src/components/results/format.ts';
import { makeSyntheticRun } from '../../helpers/factories.ts';
import { rated } from '../../helpers/rate.ts';

afterEach(cleanup);

function twoModelStudy() {
	const runs = [1, 2].map((seed) => ({
		run_id: `r${seed}`,
		generator: { id: `m${seed}` },
		dataset: 'gsm8k',
		seed,
		records: makeSyntheticRun({
			seed,
			items: 8,
			samples: 1,
			temperatures: [0],
			perturbations: ['none', 'append']
		}),
		answers: []
	}));
	return study(runs);
}

/** The same sweep labelled by the rules alone: every turn no rule caught is undecided. */
function rulesOnlyStudy() {
	const runs = [1, 2].map((seed) => ({
		run_id: `r${seed}`,
		generator: { id: `m${seed}` },
		dataset: 'gsm8k',
		seed,
		records: makeSyntheticRun({
			seed,
			items: 8,
			samples: 1,
			temperatures: [0],
			perturbations: ['none', 'append']
		}).map((r, i) => {
			const label = i % 3 === 0 ? ('degenerate' as const) : ('undecided' as const);
			return {
				...r,
				rule_label: label,
				judge_label: null,
				label,
				verdict: label === 'undecided' ? ('undecided' as const) : ('not_genuine' as const),
				label_source: 'rules' as const
			};
		}),
		answers: []
	}));
	return study(runs);
}

const cellTexts = (row: HTMLElement) =>
	[...row.querySelectorAll('th, td')].map((c) => c.textContent?.trim());

describe('the shared data table', () => {
	it('shows one study row per model and condition, named by its model, with its effect', () => {
		const s = twoModelStudy();
		render(StudyTable, { study: s });
		const rows = within(document.body).getAllByTestId('study-row');
		expect(rows).toHaveLength(s.rows.length);
		rows.forEach((row, i) => {
			const r = s.rows[i];
			const header = row.querySelector('th[scope="row"]');
			expect(header?.textContent?.trim()).toBe(r.model);
			const cells = cellTexts(row);
			expect(cells[5]).toBe(percent(rated(r.followup).p));
			expect(cells[7]).toBe(r.effect ? points(r.effect.diff) : '');
		});
	});

	it('says once, under the table, why a rules-only row has no rate; a judged study says nothing', () => {
		const s = rulesOnlyStudy();
		expect(s.rows.every((r) => r.followup === null)).toBe(true);
		render(StudyTable, { study: s });
		for (const row of within(document.body).getAllByTestId('study-row')) {
			expect(cellTexts(row)[5]).toBe(NO_RATE);
		}
		expect(within(document.body).getByTestId('study-no-rate').textContent).toBe(NO_RATE_REASON);
		cleanup();
		render(StudyTable, { study: twoModelStudy() });
		expect(within(document.body).queryByTestId('study-no-rate')).toBeNull();
	});

	it("folds each row's counts into its More, named, so the rates and effect fit a laptop", async () => {
		const s = twoModelStudy();
		render(StudyTable, { study: s });
		const heads = [...document.querySelectorAll('thead th')].map((h) => h.textContent?.trim());
		expect(heads).not.toContain('Turns');
		expect(heads).not.toContain('Pending');
		const row = within(document.body).getAllByTestId('study-row')[0];
		await fireEvent.click(within(row).getByRole('button', { name: /^More/ }));
		const fold = within(document.body).getByTestId('study-row-more');
		const named = [...fold.querySelectorAll('dt')].map((d) => d.textContent?.trim());
		expect(named).toEqual(['Turns', 'Items', 'Genuine / with verdict', 'Pending']);
		expect(fold.querySelectorAll('dd')[0].textContent?.trim()).toBe(String(s.rows[0].n));
	});

	it("labels every cell on a phone's card with its column's name, told apart where headers repeat", () => {
		render(StudyTable, { study: twoModelStudy() });
		const heads = [...document.querySelectorAll('thead th')].map((h) => h.textContent?.trim());
		const labels = [
			...within(document.body).getAllByTestId('study-row')[0].querySelectorAll('th, td')
		].map((c) => c.getAttribute('data-label'));
		expect(labels).toHaveLength(heads.length);
		expect(labels[0]).toBeNull();
		expect(labels.slice(1, 4)).toEqual(heads.slice(1, 4));
		expect(labels.filter((l) => l?.endsWith('95% CI'))).toEqual([
			'Accuracy 95% CI',
			'Follow-ups 95% CI',
			'Paired effect 95% CI'
		]);
	});

	interface Fruit {
		name: string;
		count: number;
	}
	const bold = createRawSnippet((fruit: () => Fruit) => ({
		render: () => `<b>${fruit().name}</b>`
	}));
	/**
	 * DataTable for fruit rows, typed once: svelte-check reads the component's generics (T is
	 * Fruit here), while plain tsc sees any .svelte import as untyped and takes no type arguments.
	 */
	const FruitTable: Component<{
		label: string;
		testid: string;
		columns: readonly Column<Fruit>[];
		rows: readonly Fruit[];
		key: (f: Fruit) => string;
		empty: string;
		rowTestid?: string;
	}> = DataTable;
	const COLUMNS: Column<Fruit>[] = [
		{ head: 'Pick', hideHead: true, cell: bold },
		{ head: 'Count', num: true, class: (f) => (f.count > 2 ? 'warn' : ''), value: (f) => f.count }
	];

	it('renders snippet cells and marks a row by its own values; a hidden header names no card', () => {
		const { container } = render(FruitTable, {
			label: 'Fruit',
			testid: 'fruit',
			columns: COLUMNS,
			rows: [
				{ name: 'apple', count: 1 },
				{ name: 'pear', count: 3 }
			],
			key: (f: Fruit) => f.name,
			rowTestid: 'fruit-row',
			empty: 'No fruit.'
		});
		expect(container.querySelector('thead .sr-only')?.textContent).toBe('Pick');
		const [apple, pear] = within(container).getAllByTestId('fruit-row');
		expect(pear.querySelector('b')?.textContent).toBe('pear');
		expect(pear.querySelector('td')?.hasAttribute('data-label')).toBe(false);
		expect(pear.querySelector('td.num.warn')?.textContent).toBe('3');
		expect(apple.querySelector('.warn')).toBeNull();
	});

	it('says so across every column when there are no rows', () => {
		const { container } = render(FruitTable, {
			label: 'Fruit',
			testid: 'fruit',
			columns: COLUMNS,
			rows: [],
			key: (f: Fruit) => f.name,
			empty: 'No fruit.'
		});
		const cell = container.querySelector('tbody td');
		expect(cell?.textContent).toBe('No fruit.');
		expect(cell?.getAttribute('colspan')).toBe('2');
	});
});
