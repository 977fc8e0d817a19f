/**
 * Sizes before any download: with a model mirror whose index.json lists every catalog model,
 * set-up's pickers on both engines show each model's size from it; without one, the CPU engine's
 * chosen model says plainly that no size is known yet (the catalog lists none), never a guess.
 */
import { cleanup, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import CpuModels from '../../../src/components/engine/CpuModels.svelte';
import WebgpuModels from '../../../src/components/engine/WebgpuModels.svelte';
import { GGUF_CATALOG, ggufUrl } from '../../../src/lib/engines/cpu/catalog.ts';
import { catalogIds, modelOptions } from '../../../src/lib/engines/webgpu/models.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { renderWithServices } from '../renderWithServices.ts';

afterEach(cleanup);

const GPU = { canRunModels: true, shaderF16: false };
const PANEL = {
	gpu: GPU,
	listModels: async () => [],
	loadTemplate: async () => {
		throw new Error('not asked');
	}
};
const MB = 2 ** 20;

/** A different size for each model, so a size shown beside the wrong model fails. */
function kitIndex() {
	const ids = [...GGUF_CATALOG.map(ggufUrl), ...catalogIds()];
	const models = Object.fromEntries(ids.map((id, i) => [id, { bytes: (300 + i) * MB, files: [] }]));
	const mb = (id: string) => 300 + ids.indexOf(id);
	return { index: { format: 'user-turn-probe-mirror/1', files: {}, models }, mb };
}

async function settingsWith(mirror: boolean, engine: 'cpu' | 'webgpu') {
	localStorage.clear();
	const s = new EngineSettings(localStorage);
	s.engine.current = engine;
	const { index, mb } = kitIndex();
	if (mirror) {
		s.mirror.set('http://school.test/kit');
		const check = await s.mirror.check([], async () => ({
			ok: true,
			status: 200,
			json: async () => index
		}));
		expect(check.ok).toBe(true);
	}
	return { s, mb };
}

describe("every catalog model's size from a model mirror, before any download", () => {
	it('the CPU engine lists each GGUF at the size the mirror lists', async () => {
		const { s, mb } = await settingsWith(true, 'cpu');
		renderWithServices(CpuModels, { ...PANEL, settings: s, judgeNeeded: true, cached: {} });
		for (const role of ['generator', 'judge']) {
			const select = screen.getByTestId(`cpu-${role}-model`) as HTMLSelectElement;
			const texts = [...select.options].map((o) => o.textContent ?? '');
			for (const m of GGUF_CATALOG) {
				const option = texts.find((t) => t.startsWith(`${m.label} · ${m.quant} · `));
				expect(option).toContain(`${mb(ggufUrl(m))} MB (the model mirror's index.json)`);
			}
			expect(screen.queryByTestId(`cpu-${role}-size`)).toBeNull();
		}
	});

	it('the WebGPU engine lists each model at the size the mirror lists for the variant this GPU runs', async () => {
		const { s, mb } = await settingsWith(true, 'webgpu');
		const { container } = renderWithServices(WebgpuModels, {
			...PANEL,
			settings: s,
			judgeNeeded: false,
			cached: {}
		});
		const rows = [...container.querySelectorAll('[data-testid="generator-model"] label.row')];
		const options = modelOptions('generator', GPU);
		expect(rows).toHaveLength(options.length);
		for (const o of options) {
			const row = rows.find((r) => r.querySelector('.name')?.textContent === o.label);
			expect(row?.textContent).toContain(`${mb(o.id)} MB download (the model mirror's index.json)`);
		}
	});

	it('without a mirror, the chosen CPU model says plainly that its size is not known yet', async () => {
		const { s } = await settingsWith(false, 'cpu');
		renderWithServices(CpuModels, { ...PANEL, settings: s, judgeNeeded: false, cached: {} });
		const select = screen.getByTestId('cpu-generator-model') as HTMLSelectElement;
		for (const o of [...select.options].slice(0, GGUF_CATALOG.length)) {
			expect(o.textContent).toContain('size not known yet');
			expect(o.textContent).not.toMatch(/\d+ MB/);
		}
		expect(screen.getByTestId('cpu-generator-size').textContent).toMatch(
			/Download size not known yet: the catalog lists none for this file and no model mirror's\s+index\.json gives one/
		);
	});
});
