/**
 * See what the model sees, mounted as the app mounts it: no services, no engine, no network. The
 * prompt shown is the run's own, and the label the rules' own with their reason.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SeeView from '../../../src/views/see/SeeView.svelte';

afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

describe('SeeView', () => {
	it('shows the exact probe prompt with no network, then labels a picked turn by the rules', async () => {
		const fetch = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
		vi.stubGlobal('fetch', fetch);
		render(SeeView, { params: { family: 'Qwen3' } });
		const prompt = await screen.findByTestId('see-prompt', {}, { timeout: 10_000 });
		expect(prompt.textContent).toContain('<|im_start|>user↵');
		expect(prompt.textContent).toContain('Janet’s ducks');
		expect(screen.getByTestId('see-takeover').textContent).toMatch(/as the user/);
		expect(prompt.querySelectorAll('.special').length).toBeGreaterThan(3);
		await fireEvent.click(screen.getByTestId('see-example-degenerate'));
		const label = await screen.findByTestId('see-label');
		expect(label.dataset.label).toBe('degenerate');
		expect(label.textContent).toMatch(/repetition loop/);
		expect(fetch).not.toHaveBeenCalled();
	});

	it('shows only that it is loading until the template comes, then the whole page at once', async () => {
		render(SeeView, { params: { family: 'Qwen3' } });
		// Nothing below the heading yet, so the prompt cannot push the user-turn box down the page.
		expect(screen.getByTestId('see-loading').getAttribute('aria-busy')).toBe('true');
		expect(screen.queryByTestId('see-turn')).toBeNull();
		expect(screen.queryByTestId('see-family-Qwen3')).toBeNull();
		await screen.findByTestId('see-prompt', {}, { timeout: 10_000 });
		expect(screen.queryByTestId('see-loading')).toBeNull();
		expect(screen.getByTestId('see-turn')).toBeTruthy();
		expect(screen.getByTestId('see-family-Qwen3')).toBeTruthy();
		expect(screen.getByTestId('see-provenance').textContent).toMatch(/Template: /);
	});

	it('says the judge needs a model when no rule fires', async () => {
		render(SeeView, { params: {} });
		await screen.findByTestId('see-prompt', {}, { timeout: 10_000 });
		await fireEvent.input(screen.getByTestId('see-turn'), {
			target: { value: 'Why did you subtract the muffin eggs first?' }
		});
		const label = await screen.findByTestId('see-label');
		expect(label.dataset.label).toBe('undecided');
		expect(screen.getByTestId('see-judge').textContent).toMatch(/judge needs a model/);
	});

	it('labels every example button as it says, or says first that it is the judge’s call', async () => {
		render(SeeView, { params: { family: 'Qwen3' } });
		await screen.findByTestId('see-prompt', {}, { timeout: 10_000 });
		const buttons = screen
			.getAllByRole('button')
			.filter((b) => b.dataset.testid?.startsWith('see-example-'));
		expect(buttons.length).toBe(7);
		for (const button of buttons) {
			const kind = button.dataset.testid?.replace('see-example-', '');
			await fireEvent.click(button);
			const label = await screen.findByTestId('see-label');
			const judge = screen.queryByTestId('see-judge');
			if (button.textContent?.includes('the judge')) {
				// Said before the student reads "undecided": the note comes first in the box.
				expect(label.dataset.label).toBe('undecided');
				expect(judge?.textContent).toMatch(/judge’s call/);
				expect(label.firstElementChild).toBe(judge);
			} else {
				expect([kind, label.dataset.label]).toEqual([kind, kind]);
				expect(judge).toBeNull();
			}
		}
	});

	it('renders another family when it is picked, from its own shipped copy', async () => {
		render(SeeView, { params: { family: 'Qwen3' } });
		await screen.findByTestId('see-prompt', {}, { timeout: 10_000 });
		await fireEvent.click(screen.getByTestId('see-family-gpt-oss'));
		await waitFor(() =>
			expect(screen.getByTestId('see-prompt').textContent).toMatch(/<\|end\|><\|start\|>user▌/)
		);
		expect(screen.getByTestId('see-provenance').textContent).toMatch(/copy of .*Apache-2\.0/);
	});
});
