import { describe, expect, it } from 'vitest';
import { Persisted, type KeyValueStorage } from '../../../src/lib/state/persisted.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';

function memoryStorage(
	seed: Record<string, string> = {}
): KeyValueStorage & { data: Map<string, string> } {
	const data = new Map(Object.entries(seed));
	return {
		data,
		getItem: (k) => data.get(k) ?? null,
		setItem: (k, v) => void data.set(k, v),
		removeItem: (k) => void data.delete(k)
	};
}

describe('Persisted', () => {
	it('reads the stored value and writes each change as JSON', () => {
		const s = memoryStorage({ k: '7' });
		const p = new Persisted('k', 1, s);
		expect(p.current).toBe(7);
		p.current = 9;
		expect(s.data.get('k')).toBe('9');
		expect(new Persisted('k', 1, s).current).toBe(9);
	});

	it('falls back on junk or a value of another type', () => {
		expect(new Persisted('k', 1, memoryStorage({ k: '{oops' })).current).toBe(1);
		expect(new Persisted('k', 1, memoryStorage({ k: '"text"' })).current).toBe(1);
		expect(new Persisted('k', ['a'], memoryStorage({ k: '{}' })).current).toEqual(['a']);
	});

	it('keeps new default fields when an older stored object lacks them, and saves in-place edits', () => {
		const s = memoryStorage({ form: '{"n":3}' });
		const p = new Persisted('form', { n: 10, seed: 0 }, s);
		expect(p.current).toEqual({ n: 3, seed: 0 });
		p.current.seed = 5;
		p.save();
		expect(JSON.parse(s.data.get('form') ?? '')).toEqual({ n: 3, seed: 5 });
	});

	it('works without storage at all', () => {
		const p = new Persisted('k', 'x', undefined);
		p.current = 'y';
		expect(p.current).toBe('y');
	});
});

describe('EngineSettings', () => {
	it('keeps the API key in memory only, unless remember is ticked', () => {
		const s = memoryStorage();
		const a = new EngineSettings(s);
		a.apiKey = 'sk-secret';
		expect([...s.data.values()].some((v) => v.includes('sk-secret'))).toBe(false);
		expect(new EngineSettings(s).apiKey).toBe('');
		a.rememberKey = true;
		expect(new EngineSettings(s).apiKey).toBe('sk-secret');
		a.rememberKey = false;
		expect([...s.data.values()].some((v) => v.includes('sk-secret'))).toBe(false);
		expect(new EngineSettings(s).apiKey).toBe('');
	});

	it('picks q4f32 variants without shader-f16 and names the template repos to try', () => {
		const s = new EngineSettings(memoryStorage());
		s.generatorKey.current = 'qwen3-0.6b';
		expect(s.generatorId({ shaderF16: false })).toBe('Qwen3-0.6B-q4f32_1-MLC');
		expect(s.generatorId({ shaderF16: true })).toBe('Qwen3-0.6B-q4f16_1-MLC');
		expect(s.templateSpec({ shaderF16: false })).toEqual({
			kind: 'repo',
			repos: ['mlc-ai/Qwen3-0.6B-q4f32_1-MLC', 'Qwen/Qwen3-0.6B']
		});
	});

	it('for a server, uses the typed URL or file as the template and the model as the judge fallback', () => {
		const s = new EngineSettings(memoryStorage());
		s.engine.current = 'openai';
		s.modelId.current = 'served-model';
		expect(s.judgeId({ shaderF16: false })).toBe('served-model');
		expect(s.templateSpec({ shaderF16: false })).toBeNull();
		expect(s.problems({ canRunModels: false, shaderF16: false })).toEqual([
			'Enter the Hugging Face repo of the chat template (e.g. Qwen/Qwen3-0.6B).'
		]);
		s.templateKind.current = 'url';
		s.templateUrl.current = 'http://127.0.0.1:9/t.jinja';
		s.eosToken.current = '<|im_end|>';
		expect(s.templateSpec({ shaderF16: false })).toEqual({
			kind: 'url',
			url: 'http://127.0.0.1:9/t.jinja',
			eos_token: '<|im_end|>'
		});
		expect(s.problems({ canRunModels: false, shaderF16: false })).toEqual([]);
	});
});
