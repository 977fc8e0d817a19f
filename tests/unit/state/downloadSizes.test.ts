import { describe, expect, it } from 'vitest';
import { DownloadSizes } from '../../../src/lib/state/downloadSizes.svelte.ts';
import { modelOptions, pairFit, SUGGESTED } from '../../../src/lib/engines/webgpu/models.ts';
import { DEFAULT_VRAM_BUDGET_MB } from '../../../src/lib/engines/webgpu/catalog.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

describe('measured download sizes', () => {
	it('stores a listed total once and shows it on the next visit', () => {
		const storage = memoryStorage();
		const a = new DownloadSizes(storage);
		expect(a.mb('m1')).toBeNull();
		a.record('m1', 1_048_576 * 350.4, '2026-01-02T03:04:05.000Z');
		expect(a.mb('m1')).toBe(350);
		const b = new DownloadSizes(storage);
		expect(b.mb('m1')).toBe(350);
		expect(b.all).toEqual({ m1: 350 });
		expect(JSON.parse(storage.data.get('utp:download-sizes') ?? '{}').m1.at).toBe(
			'2026-01-02T03:04:05.000Z'
		);
	});

	it('ignores nothing listed (0, undefined, NaN, negative) and stored junk', () => {
		const storage = memoryStorage();
		const s = new DownloadSizes(storage);
		for (const bad of [0, undefined, Number.NaN, -5, Number.POSITIVE_INFINITY]) s.record('m', bad);
		expect(s.mb('m')).toBeNull();
		storage.data.set('utp:download-sizes', JSON.stringify({ m: { bytes: 'big' }, n: null }));
		const junk = new DownloadSizes(storage);
		expect(junk.mb('m')).toBeNull();
		expect(junk.mb('n')).toBeNull();
		expect(junk.all).toEqual({});
	});

	it('asks only for cached models whose size is not stored', () => {
		const s = new DownloadSizes(memoryStorage());
		s.record('known', 10);
		expect(s.missing({ known: true, fresh: true, absent: false })).toEqual(['fresh']);
	});
});

describe('classroom defaults', () => {
	it('the default generator and judge fit the budget together with and without shader-f16', () => {
		for (const shaderF16 of [true, false]) {
			const s = new EngineSettings(memoryStorage());
			const g = s.models.webgpu.generator({ shaderF16 });
			const j = s.models.webgpu.judge({ shaderF16 });
			if (!g || !j) throw new Error('a default model is not in the catalog');
			expect(g.key).toBe(SUGGESTED.generator.key);
			expect(j.key).toBe(SUGGESTED.judge.key);
			const fit = pairFit([g.id, j.id]);
			expect(fit.fits, `${g.id} + ${j.id} = ${fit.total_MB} MB`).toBe(true);
			expect(fit.total_MB).toBeLessThanOrEqual(DEFAULT_VRAM_BUDGET_MB);
		}
	});

	it('marks exactly one model per role as suggested, with the reason', () => {
		for (const role of ['generator', 'judge'] as const) {
			const suggested = modelOptions(role, { shaderF16: false }).filter((o) => o.suggested);
			expect(suggested.map((o) => o.key)).toEqual([SUGGESTED[role].key]);
			expect(suggested[0].suggested_reason).toMatch(/4,096 MB/);
		}
		// The reason's number is the budget the check uses.
		expect(DEFAULT_VRAM_BUDGET_MB).toBe(4096);
	});

	it("the suggested generator's template ships with the app", async () => {
		const { shippedPackageFor } = await import('../../../src/lib/templates/packages.ts');
		const g = modelOptions('generator', { shaderF16: true }).find(
			(o) => o.key === SUGGESTED.generator.key
		);
		expect(shippedPackageFor(g?.template_repo)).toBeDefined();
	});
});
