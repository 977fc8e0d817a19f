import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CpuThreads from '../../../src/components/engine/CpuThreads.svelte';

afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

/** Cache Storage with nothing in it, and what the component wrote. */
function stubCaches() {
	const puts: string[] = [];
	vi.stubGlobal('caches', {
		open: async () => ({
			match: async () => undefined,
			put: async (key: string) => void puts.push(key),
			delete: async () => false
		})
	});
	return puts;
}

function stubNavigator(over: { controller: unknown; cores: number }) {
	vi.stubGlobal('navigator', {
		...navigator,
		hardwareConcurrency: over.cores,
		serviceWorker: { controller: over.controller }
	});
}

describe('CpuThreads', () => {
	it('says how many threads run, of how many cores, on an isolated page', async () => {
		stubCaches();
		stubNavigator({ controller: {}, cores: 8 });
		vi.stubGlobal('crossOriginIsolated', true);
		render(CpuThreads);
		const line = await screen.findByTestId('cpu-threads');
		expect(line.textContent).toMatch(/Runs on 4 CPU threads \(of this device's 8 cores/);
		expect(line.dataset.threads).toBe('4');
		expect((screen.getByTestId('isolation-switch') as HTMLInputElement).checked).toBe(true);
	});

	it('offers the one reload on a first visit, naming the threads it would give', async () => {
		stubCaches();
		stubNavigator({ controller: null, cores: 4 });
		render(CpuThreads);
		const line = await screen.findByTestId('cpu-threads');
		expect(line.textContent).toMatch(/until the page is reloaded once/);
		expect(line.textContent).toMatch(/uses 2 CPU threads/);
		expect(screen.getByTestId('isolation-reload')).toBeTruthy();
	});

	it('advises no reload on a 2-core device, where the thread rule keeps 1 thread', async () => {
		stubCaches();
		stubNavigator({ controller: null, cores: 2 });
		render(CpuThreads);
		const line = await screen.findByTestId('cpu-threads');
		expect(line.textContent).toMatch(/Runs on 1 CPU thread: the engine takes half/);
		expect(line.textContent).not.toMatch(/reloaded/);
		expect(screen.queryByTestId('isolation-reload')).toBeNull();
	});

	it('turning the switch off remembers it in Cache Storage before reloading', async () => {
		const puts = stubCaches();
		stubNavigator({ controller: {}, cores: 4 });
		vi.stubGlobal('crossOriginIsolated', true);
		const reload = vi.fn();
		vi.stubGlobal('location', { ...location, reload });
		render(CpuThreads);
		await fireEvent.click(await screen.findByTestId('isolation-switch'));
		await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
		expect(puts).toEqual(['/__app-settings__/isolation-off']);
	});
});
