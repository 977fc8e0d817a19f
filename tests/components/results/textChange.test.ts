/**
 * The text-change table beside the paper's 99.0% (IFBench, append): the published share stands
 * only beside T=0 rows, where the two turns differ by the perturbation alone; above T=0 each
 * condition has its own seed, so a near-100% change there says nothing about the perturbation.
 */
import { cleanup, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import TextChange from '../../../src/components/results/TextChange.svelte';
import { overlayFor, PAPER_FIGURES } from '../../../src/lib/results/paperFigures.ts';
import type { TextChange as Row } from '../../../src/lib/results/resultsData.ts';
import { wilson } from '../../../src/lib/stats/aggregate.ts';

afterEach(() => cleanup());

const ROWS: Row[] = [
	{ temperature: 0, perturbation: 'append', changed: wilson(7, 10) },
	{ temperature: 1, perturbation: 'append', changed: wilson(10, 10) },
	{ temperature: 0, perturbation: 'truncate', changed: wilson(9, 10) }
];

const cells = () =>
	within(screen.getByTestId('text-change'))
		.getAllByRole('row')
		.slice(1)
		.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim()));

describe('TextChange beside the paper', () => {
	it('puts the 99.0% beside the T=0 append row only, never beside T=1', () => {
		const published = overlayFor(PAPER_FIGURES.text_change, 'ifbench');
		expect(published.map((t) => t.rate)).toEqual([0.99]);
		render(TextChange, { rows: ROWS, published });
		const [t0, t1, truncate] = cells();
		expect(t0[0]).toBe('T=0 · append');
		expect(t0.at(-1)).toBe('99.0%');
		expect(t1[0]).toBe('T=1 · append');
		expect(t1.at(-1)).toBe('—');
		expect(truncate.at(-1)).toBe('—');
		const seeded = within(screen.getByTestId('text-change'))
			.getAllByRole('row')[2]
			.querySelector('[title]');
		expect(seeded?.getAttribute('title')).toMatch(/own seed/);
		expect(screen.getByTestId('text-change-paper').textContent).toMatch(/beside the T=0 rows only/);
	});

	it('shows no paper number on a run of another benchmark', () => {
		render(TextChange, { rows: ROWS, published: overlayFor(PAPER_FIGURES.text_change, 'gsm8k') });
		expect(cells().map((r) => r.at(-1))).toEqual(['—', '—', '—']);
		expect(screen.queryByTestId('text-change-paper')).toBeNull();
	});
});
