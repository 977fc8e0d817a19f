import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
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
		// The result's tables are their own chunk, shown once it has loaded.
		await fireEvent.click(await screen.findByRole('button', { name: 'Copy as JSON' }));
		const box = await screen.findByRole('textbox');
		expect(JSON.parse((box as HTMLTextAreaElement).value)).toMatchObject({ model_id: 'gen-model' });
	});

	it("lists the figures and earlier results with each cell named for a phone's card", async () => {
		vi.stubGlobal('navigator', { clipboard: { writeText: async () => {} } });
		const { bench, request } = setup();
		await bench.run(request);
		await bench.run({ ...request, model: 'other-model' });
		render(DeviceBenchView, { bench, request });
		const figures = await screen.findByTestId('bench-figures');
		const decode = within(figures).getByRole('rowheader', { name: 'Decode' }).closest('tr');
		const cells = [...(decode?.querySelectorAll('td') ?? [])];
		expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(['Value', 'Unit']);
		expect(cells[0].textContent?.trim()).toMatch(/^\d/);

		await fireEvent.click(screen.getByText(/Earlier results \(1\)/));
		const earlier = within(screen.getByTestId('bench-history')).getAllByRole('row').slice(1);
		expect(earlier).toHaveLength(1);
		expect(earlier[0].querySelector('[data-label="Model"]')?.textContent?.trim()).toBe('gen-model');
		// The copy button's column has a header for screen readers, and no name on the card.
		const copy = within(earlier[0]).getByRole('button', { name: 'Copy' });
		expect(copy.closest('td')?.hasAttribute('data-label')).toBe(false);
	});
});
