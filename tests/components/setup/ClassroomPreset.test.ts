/** The classroom preset: its one model, size and time shown before anything downloads. */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ClassroomPreset from '../../../src/views/setup/ClassroomPreset.svelte';
import { estimateRun } from '../../../src/lib/setup/estimate.ts';
import type { ClassroomLabelling } from '../../../src/lib/setup/classroom.ts';

afterEach(cleanup);

const model = {
	id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
	label: 'Qwen2.5 0.5B Instruct · q4f32_1',
	download_MB: null,
	at_most_MB: 1060,
	apply: vi.fn()
};
const estimate = (l: ClassroomLabelling) =>
	estimateRun({
		items: 10,
		conditions: 1,
		judge_mode: l === 'rules' ? 'rules' : 'hybrid',
		guess_tps: 8,
		models: [{ id: model.id, download_MB: null }],
		answer_max_tokens: 1024,
		max_tokens: 200
	});

describe('ClassroomPreset', () => {
	it('shows the model, a size bound and a time for this device, then applies the chosen labelling', async () => {
		const onApply = vi.fn();
		render(ClassroomPreset, { model, estimate, onApply });
		expect(screen.getByTestId('classroom-model').textContent).toBe(model.label);
		expect(screen.getByTestId('classroom-size').textContent).toMatch(/at most about 1,060 MB/);
		const hybrid = screen.getByTestId('classroom-time').textContent ?? '';
		expect(hybrid).toMatch(/On this device: about \d+ min.*typical 8 tokens\/s/);
		await fireEvent.click(screen.getByTestId('classroom-rules'));
		// Rules only: no judge calls, so the time can only shrink.
		expect(screen.getByTestId('classroom-time').textContent).not.toBe(hybrid);
		await fireEvent.click(screen.getByTestId('classroom-apply'));
		expect(onApply).toHaveBeenCalledWith('rules');
	});

	it('with a server, says there is no model to download instead of offering one', () => {
		render(ClassroomPreset, { model: null, estimate: () => null, onApply: () => {} });
		expect(screen.queryByTestId('classroom-apply')).toBeNull();
		expect(screen.getByTestId('classroom').textContent).toMatch(/with a server/);
	});
});
