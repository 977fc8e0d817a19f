import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DeviceBenchView from '../../../src/components/bench/DeviceBench.svelte';
import { DexieBenchmarkStore } from '../../../src/lib/db/benchmarks.ts';
import { createDB } from '../../../src/lib/db/schema.ts';
import type { GpuReport } from '../../../src/lib/engines/webgpu/gpu.ts';
import { DeviceBench } from '../../../src/lib/state/deviceBench.svelte.ts';
import type { ChatTemplate } from '../../../src/lib/probe/template.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

const GPU: GpuReport = {
	webgpu: true,
	adapter: {
		vendor: 'acme',
		architecture: 'x1',
		device: '',
		description: 'Acme GPU',
		fallback: false
	},
	shader_f16: false,
	limits: {}
};

/** A minimal ChatML template (the fixture files are not reachable from the jsdom environment). */
const CHATML: ChatTemplate = {
	source:
		"{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}",
	bos_token: null,
	eos_token: '<|im_end|>',
	repo: 'test/chatml'
};

afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

function setup() {
	const db = createDB(`bench-view-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
	const bench = new DeviceBench({ store: new DexieBenchmarkStore(db), gpu: async () => GPU });
	const request = {
		engine: new ScriptedEngine({ tokenDelayMs: 1 }),
		model: 'gen-model',
		template: CHATML
	};
	return { bench, request };
}

describe('DeviceBench component', () => {
	it('explains why it cannot run without a model', () => {
		const { bench } = setup();
		render(DeviceBenchView, { bench, request: null, disabledReason: 'Pick a model.' });
		expect(screen.getByRole('button', { name: 'Run benchmark' })).toHaveProperty('disabled', true);
		expect(screen.getByText('Pick a model.')).toBeTruthy();
	});

	it('runs, shows the figures with the adapter, and copies them as JSON', async () => {
		const writeText = vi.fn(async (_text: string) => {});
		vi.stubGlobal('navigator', { clipboard: { writeText } });
		const { bench, request } = setup();
		render(DeviceBenchView, { bench, request });
		await fireEvent.click(screen.getByRole('button', { name: 'Run benchmark' }));
		await waitFor(() => expect(screen.getByText('Decode')).toBeTruthy(), { timeout: 5_000 });
		expect(screen.getByText('Probe records')).toBeTruthy();
		expect(screen.getByText(/Acme GPU/)).toBeTruthy();

		await fireEvent.click(screen.getByRole('button', { name: 'Copy as JSON' }));
		await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
		const copied = JSON.parse(writeText.mock.calls[0][0]);
		expect(copied).toMatchObject({ model_id: 'gen-model', device: { vendor: 'acme' } });
		expect(copied.results.decode_tps).toBe(bench.result?.results.decode_tps);
		expect(screen.getByText('Copied.')).toBeTruthy();
	});

	it('shows the JSON to copy by hand when the clipboard refuses', async () => {
		vi.stubGlobal('navigator', {
			clipboard: { writeText: async () => Promise.reject(new Error('denied')) }
		});
		const { bench, request } = setup();
		await bench.run(request);
		render(DeviceBenchView, { bench, request });
		await fireEvent.click(screen.getByRole('button', { name: 'Copy as JSON' }));
		const box = await screen.findByRole('textbox');
		expect(JSON.parse((box as HTMLTextAreaElement).value)).toMatchObject({ model_id: 'gen-model' });
	});
});
