import { cleanup, fireEvent, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ModelPicker from '../../src/components/ModelPicker.svelte';
import LabelTally from '../../src/components/LabelTally.svelte';
import { EMPTY_TALLY, LabelTally as Tally } from '../../src/lib/live/labelTally.ts';
import type { ProbeRecord } from '../../src/lib/probe/types.ts';
import { makeRecord } from '../helpers/factories.ts';

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
	const judged = (item: string, over: Partial<ProbeRecord> = {}) =>
		makeRecord({ item_id: item, answer_finish_reason: 'stop', verdict: 'genuine', ...over });
	const of = (records: ProbeRecord[]) => {
		const t = new Tally();
		for (const r of records) t.add(r);
		return t.snapshot();
	};

	it('shows the genuine share of the turns with a verdict, and each category’s count', () => {
		const tally = of([
			judged('a'),
			judged('b', { label: 'degenerate', verdict: 'not_genuine' }),
			judged('c', { label: 'prompt_restatement', verdict: 'genuine' }),
			judged('d', { label: 'undecided', label_source: 'rules', verdict: null }),
			judged('e', { answer_finish_reason: 'length', answer: '' })
		]);
		const { getByTestId } = render(LabelTally, { tally });
		// 1 genuine verdict of 3 decided turns: the conflict counts as not genuine, the undecided
		// turn and the probe of an answer cut while reasoning are out.
		expect(getByTestId('tally-rate').textContent).toMatch(
			/Genuine follow-ups:\s*33%\s*\(1 of 3 turns with a verdict\)/
		);
		const text = getByTestId('label-tally').textContent ?? '';
		expect(text).toMatch(/Plausible follow-up\s*1/);
		expect(text).toMatch(/Degenerate short output\s*1/);
		expect(text).toMatch(/1\s*\(out of the rate\)/);
		expect(getByTestId('tally-conflicts').textContent).toContain('1 verdict conflict');
		expect(getByTestId('tally-cut').textContent).toContain('1 left out');
		expect(text).not.toContain('Meta-planning');
	});

	it('states no rate when the rules alone labelled the turns', () => {
		const rules = { label_source: 'rules' as const, verdict: null };
		const tally = of([
			judged('a', { ...rules, label: 'undecided' }),
			judged('b', { ...rules, label: 'degenerate', verdict: 'not_genuine' })
		]);
		const { getByTestId } = render(LabelTally, { tally });
		expect(getByTestId('tally-rate').textContent).toContain('no rate (rules only)');
		expect(getByTestId('tally-rate').textContent).not.toMatch(/\d+%/);
	});

	it('says so when nothing is labelled yet', () => {
		const { getByTestId } = render(LabelTally, { tally: EMPTY_TALLY });
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
