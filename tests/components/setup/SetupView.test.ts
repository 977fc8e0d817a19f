/**
 * The set-up view's engine default follows the device: "This device" with a WebGPU adapter, the
 * OpenAI-compatible server without one, and a choice the user saved wins either way. The view runs
 * whole with the real settings, environment probe and panel; each test gets fresh settings and
 * environment (as on a new page load), and the device engine is faked, since asking it about
 * cached models would start the web-llm worker.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import SetupView from '../../../src/views/setup/SetupView.svelte';
import { probeGpu, type GpuLike } from '../../../src/lib/engines/webgpu/gpu.ts';
import { Environment } from '../../../src/lib/state/environment.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { ADAPTER, renderWithServices } from '../renderWithServices.ts';

/** The view on a new page load: settings read from localStorage, the GPU probed from navigator. */
async function renderSetup(gpu: GpuLike | undefined) {
	renderWithServices(
		SetupView,
		{ params: {} },
		{
			settings: new EngineSettings(localStorage),
			environment: new Environment({ probeGpu: () => probeGpu({ gpu }) })
		}
	);
	// The probe has answered once the panel shows "WebGPU yes/no".
	await screen.findByTestId('env-webgpu');
}

const radio = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const problems = () => screen.queryByTestId('setup-problems')?.textContent ?? '';
const DEVICE_PROBLEM = 'This device cannot run models on its GPU';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('SetupView engine default', () => {
	it('without navigator.gpu, defaults to the CPU engine and says why in the panel', async () => {
		// Enough cores that isolation would add threads (on 2 or 3 the thread rule keeps 1 anyway).
		vi.stubGlobal('navigator', { ...navigator, hardwareConcurrency: 8 });
		onTestFinished(() => void vi.unstubAllGlobals());
		await renderSetup(undefined);
		await waitFor(() => expect(radio('engine-cpu').checked).toBe(true));
		expect(radio('engine-webgpu').checked).toBe(false);
		expect(radio('engine-server').checked).toBe(false);
		expect(screen.getByTestId('env-server-hint').textContent).toMatch(
			/engine below is set to “This device \(CPU\)”/
		);
		// The CPU engine offers its catalog and says whether it can use more than one thread.
		expect((screen.getByTestId('cpu-generator-model') as HTMLSelectElement).value).toBe(
			'qwen2.5-0.5b-instruct-q4_k_m'
		);
		expect((await screen.findByTestId('cpu-threads')).textContent).toMatch(
			/not cross-origin isolated/
		);
		expect(problems()).not.toContain(DEVICE_PROBLEM);
		// A default, not a choice: nothing is saved, so a later visit with WebGPU gets the device.
		expect(localStorage.getItem('utp:engine')).toBeNull();
	});

	it('when requestAdapter() resolves null, defaults to the CPU engine too', async () => {
		await renderSetup({ requestAdapter: async () => null });
		await waitFor(() => expect(radio('engine-cpu').checked).toBe(true));
		expect(screen.getByTestId('env-no-webgpu').textContent).toMatch(/no GPU adapter/);
	});

	it('lets the user switch to the WebGPU engine, but never start a run there', async () => {
		await renderSetup(undefined);
		await waitFor(() => expect(radio('engine-cpu').checked).toBe(true));
		await fireEvent.click(radio('engine-webgpu'));
		expect(radio('engine-webgpu').checked).toBe(true);
		expect(problems()).toContain(DEVICE_PROBLEM);
		expect((screen.getByTestId('start-run') as HTMLButtonElement).disabled).toBe(true);
		expect(localStorage.getItem('utp:engine')).toBe('"webgpu"');
		// The panel offers the way back to a server once the device is chosen.
		expect(screen.getByText('use a server')).toBeTruthy();
	});

	it('with a WebGPU adapter, defaults to this device', async () => {
		await renderSetup({ requestAdapter: async () => ADAPTER });
		expect(screen.getByTestId('env-webgpu').textContent).toBe('yes');
		expect(radio('engine-webgpu').checked).toBe(true);
		expect(radio('engine-server').checked).toBe(false);
		// Offered always, even where WebGPU works.
		expect(radio('engine-cpu').checked).toBe(false);
		expect(screen.queryByTestId('env-no-webgpu')).toBeNull();
		expect(problems()).not.toContain(DEVICE_PROBLEM);
	});

	it('keeps a saved choice of this device without WebGPU (and blocks the start)', async () => {
		localStorage.setItem('utp:engine', '"webllm"');
		await renderSetup(undefined);
		await waitFor(() => expect(problems()).toContain(DEVICE_PROBLEM));
		expect(radio('engine-webgpu').checked).toBe(true);
		expect((screen.getByTestId('start-run') as HTMLButtonElement).disabled).toBe(true);
	});

	it('keeps a saved choice of a server with WebGPU', async () => {
		localStorage.setItem('utp:engine', '"openai"');
		await renderSetup({ requestAdapter: async () => ADAPTER });
		expect(screen.getByTestId('env-webgpu').textContent).toBe('yes');
		expect(radio('engine-server').checked).toBe(true);
	});
});

describe('SetupView server sweep', () => {
	it('lists each further model with its context window, "not reported" before a URL is given', async () => {
		localStorage.setItem('utp:engine', '"openai"');
		localStorage.setItem('utp:base-url', '""');
		await renderSetup({ requestAdapter: async () => ADAPTER });
		const typed = (await screen.findByTestId('sweep-models')) as HTMLInputElement;
		await fireEvent.input(typed, { target: { value: 'Qwen/Qwen3-0.6B, openai/gpt-oss-20b' } });
		// No served model is chosen yet: the two typed ones are the sweep.
		await waitFor(() => expect(screen.getAllByTestId('sweep-context')).toHaveLength(2));
		const said = screen.getAllByTestId('sweep-context').map((e) => e.textContent?.trim());
		expect(said).toEqual([
			'context window not reported by the server',
			'context window not reported by the server'
		]);
	});
});
