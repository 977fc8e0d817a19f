/**
 * The playground opened straight from a link applies the same engine default as set-up: the CPU
 * engine without WebGPU, the device with it, and a saved choice wins.
 */
import { cleanup, waitFor } from '@testing-library/svelte';
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import PlaygroundView from '../../../src/views/playground/PlaygroundView.svelte';
import { probeGpu, type GpuLike } from '../../../src/lib/engines/webgpu/gpu.ts';
import { Environment } from '../../../src/lib/state/environment.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { ADAPTER, renderWithServices } from '../renderWithServices.ts';

/** The playground opened first on a new page load (set-up never ran in this tab). */
function renderPlayground(gpu: GpuLike | undefined) {
	const settings = new EngineSettings(localStorage);
	const env = new Environment({ probeGpu: () => probeGpu({ gpu }) });
	renderWithServices(PlaygroundView, { params: {} }, { settings, environment: env });
	return { settings, env };
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('PlaygroundView engine default', () => {
	it('without WebGPU, defaults to the CPU engine', async () => {
		const { settings } = renderPlayground(undefined);
		await waitFor(() => expect(settings.engine.current).toBe('cpu'));
		expect(localStorage.getItem('utp:engine')).toBeNull();
	});

	it('with a WebGPU adapter, stays on the device', async () => {
		const { settings, env } = renderPlayground({ requestAdapter: async () => ADAPTER });
		await waitFor(() => expect(env.gpu).toBeTruthy());
		expect(settings.engine.current).toBe('webgpu');
	});

	it('keeps a saved device choice even without WebGPU', async () => {
		localStorage.setItem('utp:engine', JSON.stringify('webllm'));
		const { settings, env } = renderPlayground(undefined);
		await waitFor(() => expect(env.gpu).toBeTruthy());
		await new Promise((r) => setTimeout(r, 0));
		expect(settings.engine.current).toBe('webgpu');
	});
});
