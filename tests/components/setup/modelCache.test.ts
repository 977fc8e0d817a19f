/**
 * Set-up asks afresh which models are in this browser each time it opens: a run since it last
 * asked may have downloaded one (the classroom preset then says nothing is left to download).
 */
import { cleanup, screen, waitFor } from '@testing-library/svelte';
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import SetupView from '../../../src/views/setup/SetupView.svelte';
import { probeGpu } from '../../../src/lib/engines/webgpu/gpu.ts';
import { Environment } from '../../../src/lib/state/environment.svelte.ts';
import { ModelCacheState } from '../../../src/lib/state/modelCache.svelte.ts';
import { fakeDeviceEngine, renderWithServices, testServices } from '../renderWithServices.ts';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('set-up and the model cache', () => {
	it('shows a model downloaded since set-up was last open as cached', async () => {
		let downloaded = false;
		const cpu = { ...fakeDeviceEngine('wllama-test'), isCached: async () => downloaded };
		const modelCache = new ModelCacheState();
		const open = () =>
			renderWithServices(
				SetupView,
				{ params: {} },
				{
					modelCache,
					environment: new Environment({ probeGpu: () => probeGpu({}) }),
					services: () => testServices(undefined, { makeDevice: { cpu: () => cpu } })
				}
			);
		const line = () => screen.getByTestId('cpu-generator-cache').textContent ?? '';

		open();
		await waitFor(() => expect(line()).toMatch(/Not cached/));
		cleanup();
		downloaded = true;
		open();
		await waitFor(() => expect(line()).toMatch(/In this browser's cache/));
	});
});
