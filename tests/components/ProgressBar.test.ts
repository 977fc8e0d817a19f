import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import ProgressBar from '../../src/components/ProgressBar.svelte';

afterEach(cleanup);

const now = (el: HTMLElement) => Number(el.getAttribute('aria-valuenow'));

describe('ProgressBar', () => {
	it('never moves backwards when a lower value arrives', async () => {
		const { getByRole, rerender } = render(ProgressBar, { value: 0.2, label: 'model' });
		const bar = getByRole('progressbar');
		expect(now(bar)).toBe(20);
		await rerender({ value: 0.6, label: 'model' });
		expect(now(bar)).toBe(60);
		await rerender({ value: 0.3, label: 'model' });
		expect(now(bar)).toBe(60);
		await rerender({ value: 0.9, label: 'model' });
		expect(now(bar)).toBe(90);
	});

	it('starts over for a new resetKey, and clamps junk values', async () => {
		const { getByRole, rerender } = render(ProgressBar, { value: 0.8, label: 'a', resetKey: 'a' });
		const bar = getByRole('progressbar');
		await rerender({ value: 0.1, label: 'b', resetKey: 'b' });
		expect(now(bar)).toBe(10);
		await rerender({ value: Number.NaN, label: 'b', resetKey: 'b' });
		expect(now(bar)).toBe(10);
		await rerender({ value: 7, label: 'b', resetKey: 'b' });
		expect(now(bar)).toBe(100);
		expect(bar.getAttribute('aria-label')).toBe('b');
	});

	it('fills by scaling, which animates without laying out the page', async () => {
		const { container, rerender } = render(ProgressBar, { value: 0.25, label: 'run' });
		const fill = container.querySelector<HTMLElement>('.fill');
		expect(fill?.style.transform).toBe('scaleX(0.25)');
		expect(fill?.style.width).toBe('');
		await rerender({ value: 0.5, label: 'run' });
		expect(fill?.style.transform).toBe('scaleX(0.5)');
	});
});
