import { cleanup, fireEvent, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ModelPicker from '../../src/components/ModelPicker.svelte';
import LabelTally from '../../src/components/LabelTally.svelte';

afterEach(cleanup);

const option = (key: string, params_B: number, suggested: boolean) => ({
	key,
	label: key.toUpperCase(),
	id: `${key}-q4f32_1-MLC`,
	quant: 'q4f32_1',
	vram_MB: 1000 * params_B,
	download_MB: key === 'b' ? 512 : null,
	params_B,
	suggested
});

describe('ModelPicker', () => {
	it('lists suggested models first, marks cached ones, and reports a pick', async () => {
		const onchange = vi.fn();
		const { getByTestId, container } = render(ModelPicker, {
			legend: 'Generator',
			name: 'generator-model',
			options: [option('a', 4, false), option('b', 1, true), option('c', 0.5, false)],
			value: 'a',
			cached: { 'b-q4f32_1-MLC': true },
			onchange
		});
		const rows = [...container.querySelectorAll('label.row')];
		expect(rows.map((r) => r.querySelector('.name')?.textContent)).toEqual(['B', 'C', 'A']);
		expect(rows[0].textContent).toContain('cached');
		expect(rows[0].textContent).toContain('512 MB download');
		expect(rows[1].textContent).toContain('download size not known yet (less than 500 MB)');
		expect(rows[1].textContent).not.toContain('cached');
		expect((getByTestId('generator-model-a') as HTMLInputElement).checked).toBe(true);
		await fireEvent.click(getByTestId('generator-model-c'));
		expect(onchange).toHaveBeenCalledWith('c');
	});
});

describe('ModelPicker download sizes and the suggestion', () => {
	it('shows a size measured in this browser, else says unknown with the VRAM bound', () => {
		const { container, getByTestId } = render(ModelPicker, {
			legend: 'Judge',
			name: 'judge-model',
			options: [
				{ ...option('a', 3, true), suggested_reason: 'Suggested: fits in 4,096 MB.' },
				option('c', 0.5, false),
				option('d', 1, false)
			],
			value: 'a',
			measured: { 'c-q4f32_1-MLC': 321, 'x-unrelated': 9 }
		});
		const rows = [...container.querySelectorAll('label.row')];
		const text = (key: string) =>
			rows.find((r) => r.querySelector('.name')?.textContent === key)?.textContent ?? '';
		expect(text('C')).toContain('321 MB download (measured in this browser)');
		expect(text('D')).toContain('download size not known yet (less than 1,000 MB)');
		expect(text('A')).toContain('download size not known yet (less than 3,000 MB)');
		expect(getByTestId('judge-model-a-why').textContent).toContain('Suggested: fits in 4,096 MB.');
		expect(container.querySelectorAll('.tag:not(.cached)')).toHaveLength(1);
	});
});

describe('LabelTally', () => {
	it('shows counts and shares of the labels that occurred', () => {
		const { getByTestId } = render(LabelTally, { tally: { genuine_followup: 3, degenerate: 1 } });
		const text = getByTestId('label-tally').textContent ?? '';
		expect(text).toMatch(/Plausible follow-up\s*3\s*\(75%\)/);
		expect(text).toMatch(/Degenerate short output\s*1\s*\(25%\)/);
		expect(text).not.toContain('Meta-planning');
	});

	it('counts undecided turns out of the shares, as the results’ follow-up rate does', () => {
		const { getByTestId } = render(LabelTally, {
			tally: { genuine_followup: 1, degenerate: 3, undecided: 4 }
		});
		const text = getByTestId('label-tally').textContent ?? '';
		// 1 of the 4 decided turns, not 1 of 8.
		expect(text).toMatch(/Plausible follow-up\s*1\s*\(25%\)/);
		expect(text).toMatch(/Degenerate short output\s*3\s*\(75%\)/);
		expect(text).toMatch(/4\s*\(out of the rate\)/);
	});

	it('says so when nothing is labelled yet', () => {
		const { getByTestId } = render(LabelTally, { tally: {} });
		expect(getByTestId('label-tally').textContent).toContain('No labelled turns yet.');
	});
});

describe("ModelPicker with a model mirror's sizes", () => {
	it("shows the size the mirror's index.json lists before any download, and unknown where it lists none", () => {
		const { container } = render(ModelPicker, {
			legend: 'Generator',
			name: 'generator-model',
			options: [option('a', 3, false), option('c', 0.5, true)],
			value: 'c',
			measured: { 'a-q4f32_1-MLC': 999 },
			listed: (id: string) => (id === 'c-q4f32_1-MLC' ? 276 : null)
		});
		const rows = [...container.querySelectorAll('label.row')];
		const text = (key: string) =>
			rows.find((r) => r.querySelector('.name')?.textContent === key)?.textContent ?? '';
		expect(text('C')).toContain("276 MB download (the model mirror's index.json)");
		// Not listed: the size measured here still counts; nothing is made up.
		expect(text('A')).toContain('999 MB download (measured in this browser)');
	});
});
