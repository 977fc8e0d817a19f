/** Bring-your-own MLC models in the engine settings: stored, offered in both pickers, removable. */
import { describe, expect, it } from 'vitest';
import { modelOptions, pairFit } from '../../../src/lib/engines/webgpu/models.ts';
import { customKey } from '../../../src/lib/engines/webgpu/custom.ts';
import { DEFAULT_GENERATOR_KEY } from '../../../src/lib/engines/webgpu/settings.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

const GPU = { canRunModels: true, shaderF16: true, checked: true };
const INPUT = {
	id: 'Tiny-q4f16_1-MLC',
	label: 'Tiny',
	model_url: 'http://127.0.0.1:8123/tiny',
	model_lib_url: 'http://127.0.0.1:8123/tiny.wasm',
	context_window: '2048'
};

describe('EngineSettings: your own MLC models', () => {
	it('stores a valid model, survives a reload, and offers it as generator and judge', () => {
		const storage = memoryStorage();
		const s = new EngineSettings(storage);
		expect(s.models.webgpu.addCustomModel(INPUT)).toEqual([]);
		const again = new EngineSettings(storage);
		expect(again.models.webgpu.customModels.map((m) => m.id)).toEqual([INPUT.id]);
		const key = customKey(INPUT.id);
		expect(
			modelOptions('judge', GPU, again.models.webgpu.customModels).map((o) => o.key)
		).toContain(key);
		again.models.webgpu.generatorKey.current = key;
		again.models.webgpu.judgeKey.current = key;
		expect(again.models.webgpu.generator(GPU)).toMatchObject({
			id: INPUT.id,
			context_window: 2048
		});
		expect(again.generatorId(GPU)).toBe(INPUT.id);
		expect(again.judgeId(GPU)).toBe(INPUT.id);
		expect(again.problems(GPU)).toEqual([]);
		// Its template comes from the tokenizer_config.json beside its weights.
		expect(again.templateSpec(GPU)).toEqual({
			kind: 'url',
			url: 'http://127.0.0.1:8123/tiny/resolve/main/tokenizer_config.json'
		});
	});

	it('refuses bad input and duplicates, storing nothing', () => {
		const storage = memoryStorage();
		const s = new EngineSettings(storage);
		expect(s.models.webgpu.addCustomModel({ ...INPUT, model_url: 'http://10.0.0.5/m' })[0]).toMatch(
			/https/
		);
		expect(s.models.webgpu.addCustomModel({ ...INPUT, context_window: '0' })[0]).toMatch(
			/context window/
		);
		expect(s.models.webgpu.addCustomModel({ ...INPUT, id: 'Qwen3-0.6B-q4f16_1-MLC' })[0]).toMatch(
			/exists already/
		);
		expect(s.models.webgpu.customModels).toEqual([]);
		expect(s.models.webgpu.addCustomModel(INPUT)).toEqual([]);
		expect(s.models.webgpu.addCustomModel({ ...INPUT, label: 'other' })).toEqual([
			`A model with the id "${INPUT.id}" exists already: choose another id.`
		]);
		expect(s.models.webgpu.customModels).toHaveLength(1);
	});

	it('drops a hand-edited broken entry on read and falls back when the chosen model is removed', () => {
		const storage = memoryStorage();
		storage.setItem(
			'utp:custom-mlc-models',
			JSON.stringify([
				{ id: 'x', model_url: 'ftp://a/b' },
				{ ...INPUT, context_window: 2048 }
			])
		);
		const s = new EngineSettings(storage);
		expect(s.models.webgpu.customModels.map((m) => m.id)).toEqual([INPUT.id]);
		s.models.webgpu.generatorKey.current = customKey(INPUT.id);
		s.models.webgpu.removeCustomModel(INPUT.id);
		expect(s.models.webgpu.customModels).toEqual([]);
		expect(s.models.webgpu.generatorKey.current).toBe(DEFAULT_GENERATOR_KEY);
		// A key naming a model that is gone picks nothing, and set-up says so.
		s.models.webgpu.judgeKey.current = customKey('gone');
		expect(s.models.webgpu.judge(GPU)).toBeUndefined();
	});

	it('never counts a custom model as fitting beside another (its VRAM is not known)', () => {
		const fit = pairFit(['Qwen3-0.6B-q4f16_1-MLC', INPUT.id]);
		expect(fit).toMatchObject({ fits: false, unknown: [INPUT.id] });
	});
});
