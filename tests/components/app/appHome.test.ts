/**
 * The first screen waits only for what it shows: the home view mounts with the environment part
 * alone, and the module that makes every other part (Dexie, the probe core, the engines) loads
 * only after it painted, while the browser is idle.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import App from '../../../src/App.svelte';

const events: string[] = [];

vi.mock('../../../src/lib/app/appParts.ts', async (importOriginal) => {
	events.push('appParts');
	return importOriginal();
});

afterEach(() => cleanup());

describe('App first screen', () => {
	it('mounts the home view with the environment alone, and loads the other parts after', async () => {
		location.hash = '#/';
		render(App);
		await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 });
		events.push('home shown');
		// Idle time after the paint fetches what the views home links to read.
		await waitFor(() => expect(events).toEqual(['home shown', 'appParts']), {
			timeout: 15_000
		});
	}, 40_000);
});
