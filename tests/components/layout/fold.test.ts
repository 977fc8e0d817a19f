import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Fold from '../../../src/components/layout/Fold.svelte';

afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

const body = createRawSnippet(() => ({ render: () => '<p>The charts</p>' }));

/** A screen `width` px wide, as matchMedia answers max-width queries. */
function screenOf(width: number) {
	vi.stubGlobal('matchMedia', (query: string) => ({
		matches: width <= Number(/max-width: (\d+)px/.exec(query)?.[1] ?? Infinity)
	}));
}

describe('Fold', () => {
	it('starts open on a laptop, its heading a button that says so', () => {
		screenOf(1280);
		render(Fold, { title: 'Charts', children: body });
		const button = screen.getByRole('button', { name: 'Charts' });
		expect(button.closest('h2')).not.toBeNull();
		expect(button.getAttribute('aria-expanded')).toBe('true');
		expect(screen.getByText('The charts').closest('[hidden]')).toBeNull();
	});

	it('starts folded on a phone, and the heading opens and closes it', async () => {
		screenOf(390);
		render(Fold, { title: 'Charts', children: body });
		const button = screen.getByRole('button', { name: 'Charts' });
		const content = document.getElementById(button.getAttribute('aria-controls') ?? '');
		expect(button.getAttribute('aria-expanded')).toBe('false');
		expect(content?.hidden).toBe(true);
		await fireEvent.click(button);
		expect(button.getAttribute('aria-expanded')).toBe('true');
		expect(content?.hidden).toBe(false);
		await fireEvent.click(button);
		expect(content?.hidden).toBe(true);
	});
});
