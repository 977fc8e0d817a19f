import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	CatalogError,
	DEFAULT_VRAM_BUDGET_MB,
	findVariant,
	fitsBudget,
	getCatalog,
	parseCatalog,
	pickVariant,
	type CatalogEntry
} from '../../../src/lib/engines/webgpu/catalog.ts';

const catalog = getCatalog();
const records = new Map(prebuiltAppConfig.model_list.map((r) => [r.model_id, r]));
const variants = catalog.models.flatMap((entry) => entry.variants.map((v) => ({ entry, v })));

function entry(key: string): CatalogEntry {
	const found = catalog.models.find((e) => e.key === key);
	if (!found) throw new Error(`no catalog entry ${key}`);
	return found;
}

describe('static/models.json against the installed web-llm', () => {
	it('is pinned to the installed web-llm version', () => {
		const pkg = JSON.parse(readFileSync('node_modules/@mlc-ai/web-llm/package.json', 'utf8')) as {
			version: string;
		};
		expect(catalog.webllm_version).toBe(pkg.version);
	});

	it.each(variants.map(({ v }) => [v.id, v] as const))(
		'%s exists in prebuiltAppConfig with the same VRAM, context window, repo and model library',
		(id, v) => {
			const record = records.get(id);
			expect(record, `${id} missing from prebuiltAppConfig`).toBeDefined();
			expect(v.vram_required_MB).toBe(record?.vram_required_MB);
			expect(v.context_window).toBe(record?.overrides?.context_window_size);
			expect(`https://huggingface.co/${v.mlc_repo}`).toBe(record?.model);
			expect(v.model_lib).toBe(record?.model_lib);
			expect(v.required_features).toEqual(record?.required_features ?? []);
		}
	);

	it('covers every requested family and size with both q4f16_1 and q4f32_1', () => {
		const keys = [
			'qwen3.5-0.8b',
			'qwen3.5-2b',
			'qwen3.5-4b',
			'qwen3-0.6b',
			'qwen3-1.7b',
			'qwen3-4b',
			'qwen2.5-0.5b-instruct',
			'qwen2.5-1.5b-instruct',
			'qwen2.5-3b-instruct',
			'llama-3.2-1b-instruct',
			'llama-3.2-3b-instruct',
			'smollm2-360m-instruct',
			'smollm2-1.7b-instruct',
			'gemma-2-2b-it',
			'phi-3.5-mini-instruct'
		];
		expect(catalog.models.map((e) => e.key).sort()).toEqual([...keys].sort());
		for (const e of catalog.models) {
			expect(e.variants.map((v) => v.quant).sort()).toEqual(['q4f16_1', 'q4f32_1']);
		}
	});

	it('does not invent download sizes', () => {
		for (const { v } of variants) expect(v.download_MB).toBeNull();
	});

	it('names the original model repo for the chat template, and thinking only for Qwen3-style', () => {
		expect(entry('qwen3-0.6b').template_repo).toBe('Qwen/Qwen3-0.6B');
		expect(entry('llama-3.2-1b-instruct').template_repo).toBe('meta-llama/Llama-3.2-1B-Instruct');
		for (const e of catalog.models) {
			expect(e.template_repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
			expect(e.thinking).toBe(/^Qwen3/.test(e.family));
		}
	});
});

describe('pickVariant', () => {
	it('picks q4f16 when the GPU has shader-f16', () => {
		const { variant, reason } = pickVariant(entry('qwen3-0.6b'), { shaderF16: true });
		expect(variant.id).toBe('Qwen3-0.6B-q4f16_1-MLC');
		expect(reason).toMatch(/shader-f16/);
	});

	it('falls back to q4f32 without shader-f16 and says why', () => {
		const { variant, reason } = pickVariant(entry('smollm2-360m-instruct'), { shaderF16: false });
		expect(variant.id).toBe('SmolLM2-360M-Instruct-q4f32_1-MLC');
		expect(reason).toMatch(/lacks shader-f16/);
	});

	it('warns when only an f16 variant exists', () => {
		const f16Only: CatalogEntry = { ...entry('qwen3-0.6b') };
		f16Only.variants = f16Only.variants.filter((v) => v.quant === 'q4f16_1');
		const { variant, reason } = pickVariant(f16Only, { shaderF16: false });
		expect(variant.quant).toBe('q4f16_1');
		expect(reason).toMatch(/may fail/);
	});
});

describe('fitsBudget', () => {
	it('co-loads a small generator and judge within the default budget', () => {
		const fit = fitsBudget(['Qwen3-0.6B-q4f16_1-MLC', 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC']);
		expect(fit.fits).toBe(true);
		expect(fit.total_MB).toBeCloseTo(1403.34 + 944.62);
		expect(fit.budget_MB).toBe(DEFAULT_VRAM_BUDGET_MB);
	});

	it('phases a pair that exceeds the budget', () => {
		expect(fitsBudget(['Qwen3-4B-q4f16_1-MLC', 'Phi-3.5-mini-instruct-q4f16_1-MLC']).fits).toBe(
			false
		);
	});

	it('counts one model used as generator and judge once', () => {
		const fit = fitsBudget(['Qwen3-4B-q4f16_1-MLC', 'Qwen3-4B-q4f16_1-MLC']);
		expect(fit.total_MB).toBeCloseTo(3431.59);
		expect(fit.fits).toBe(true);
	});

	it('refuses to co-load a model whose VRAM need is unknown', () => {
		const fit = fitsBudget(['Qwen3-0.6B-q4f16_1-MLC', 'custom-model'], 100_000);
		expect(fit).toMatchObject({ fits: false, unknown: ['custom-model'] });
	});

	it('respects a custom budget', () => {
		expect(fitsBudget(['Qwen3-0.6B-q4f16_1-MLC'], 1000).fits).toBe(false);
		expect(fitsBudget(['Qwen3-0.6B-q4f16_1-MLC'], 1500).fits).toBe(true);
	});
});

describe('parseCatalog', () => {
	it('rejects a catalog without models', () => {
		expect(() => parseCatalog({ webllm_version: '0.2.86' })).toThrow(CatalogError);
	});

	it('rejects an unknown quantization with the entry named', () => {
		const bad = structuredClone(catalog);
		(bad.models[0].variants[0] as { quant: string }).quant = 'q8';
		expect(() => parseCatalog(bad)).toThrow(/qwen3\.5-0\.8b.*quant/);
	});

	it('finds a variant and its entry by web-llm id', () => {
		expect(findVariant('gemma-2-2b-it-q4f32_1-MLC')?.entry.key).toBe('gemma-2-2b-it');
		expect(findVariant('nope')).toBeUndefined();
	});
});
