import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import { renderWithServices } from '../renderWithServices.ts';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import CpuModels from '../../../src/components/engine/CpuModels.svelte';
import { findGguf, ggufUrl } from '../../../src/lib/engines/cpu/catalog.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';

afterEach(cleanup);

/** What every engine panel is given; the CPU panel uses none of the server's. */
const PANEL = {
	gpu: { canRunModels: false, shaderF16: false },
	listModels: async () => [],
	loadTemplate: async () => {
		throw new Error('not asked');
	}
};

function settings(): EngineSettings {
	localStorage.clear();
	const s = new EngineSettings(localStorage);
	s.engine.current = 'cpu';
	return s;
}

describe('CpuModels', () => {
	it('shows the cache state of the chosen files and deletes one on request', async () => {
		const s = settings();
		const genEntry = findGguf(s.models.cpu.generatorKey.current);
		const judgeEntry = findGguf(s.models.cpu.judgeKey.current);
		if (!genEntry || !judgeEntry) throw new Error('the default CPU models are not in the catalog');
		const gen = ggufUrl(genEntry);
		const judge = ggufUrl(judgeEntry);
		const onDelete = vi.fn(async () => {});
		renderWithServices(CpuModels, {
			...PANEL,
			settings: s,
			judgeNeeded: true,
			cached: { [gen]: true, [judge]: false },
			onDeleteModel: onDelete
		});
		expect(screen.getByTestId('cpu-generator-cache').textContent).toMatch(
			/In this browser's cache/
		);
		expect(screen.getByTestId('cpu-judge-cache').textContent).toMatch(/Not cached/);
		expect(screen.queryByTestId('cpu-judge-delete')).toBeNull();
		await fireEvent.click(screen.getByTestId('cpu-generator-delete'));
		expect(onDelete).toHaveBeenCalledWith(gen);
	});

	it('lists every catalog model with "size not known yet", and takes your own URL with what is wrong with it', async () => {
		const s = settings();
		renderWithServices(CpuModels, { ...PANEL, settings: s, judgeNeeded: false, cached: {} });
		expect(screen.queryByTestId('cpu-judge')).toBeNull();
		const select = screen.getByTestId('cpu-generator-model') as HTMLSelectElement;
		expect([...select.options].map((o) => o.textContent)).toContain(
			'Qwen2.5 0.5B Instruct · Q4_K_M · size not known yet · suggested'
		);
		await fireEvent.change(select, { target: { value: 'custom' } });
		const input = (await screen.findByTestId('cpu-generator-url')) as HTMLInputElement;
		await fireEvent.input(input, { target: { value: 'https://huggingface.co/org/repo' } });
		await waitFor(() =>
			expect(screen.getByText(/must point at the .gguf file itself/)).toBeTruthy()
		);
		await fireEvent.input(input, { target: { value: 'http://127.0.0.1:9/m.gguf' } });
		expect(s.generatorId({ shaderF16: false })).toBe('http://127.0.0.1:9/m.gguf');
		expect(screen.queryByText(/must point at/)).toBeNull();
	});

	it('says the page is single-threaded without cross-origin isolation', async () => {
		// Enough cores that isolation would add threads (on 2 or 3 the thread rule keeps 1 anyway).
		vi.stubGlobal('navigator', { ...navigator, hardwareConcurrency: 8 });
		onTestFinished(() => void vi.unstubAllGlobals());
		renderWithServices(CpuModels, {
			...PANEL,
			settings: settings(),
			judgeNeeded: false,
			cached: {}
		});
		expect((await screen.findByTestId('cpu-threads')).textContent).toMatch(
			/1 CPU thread: this page is not cross-origin isolated/
		);
	});
});
