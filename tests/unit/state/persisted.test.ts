import { describe, expect, it } from 'vitest';
import { Persisted } from '../../../src/lib/state/persisted.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

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

	it('takes a later default only while nothing was chosen, and never writes it', () => {
		const s = memoryStorage();
		const fresh = new Persisted('k', 'a', s);
		expect(fresh.chosen).toBe(false);
		fresh.preferDefault('b');
		expect(fresh.current).toBe('b');
		expect(s.data.has('k')).toBe(false);
		fresh.current = 'c';
		fresh.preferDefault('b');
		expect([fresh.current, fresh.chosen]).toEqual(['c', true]);
		const saved = new Persisted('k', 'a', s);
		saved.preferDefault('b');
		expect([saved.current, saved.chosen]).toEqual(['c', true]);
		// Junk in storage is no choice.
		const junk = new Persisted('k', 1, memoryStorage({ k: '"text"' }));
		junk.preferDefault(2);
		expect(junk.current).toBe(2);
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

	it('defaults the engine to the GPU with WebGPU and to the CPU engine without, unsaved', () => {
		const s = memoryStorage();
		const a = new EngineSettings(s);
		a.adoptDeviceDefault({ canRunModels: false });
		expect(a.engine.current).toBe('cpu');
		expect(s.data.has('utp:engine')).toBe(false);
		const b = new EngineSettings(s);
		b.adoptDeviceDefault({ canRunModels: true });
		expect(b.engine.current).toBe('webgpu');
	});

	it.each([
		['"webllm"', 'webgpu'],
		['"wllama"', 'cpu'],
		['"openai"', 'server'],
		['"server"', 'server']
	])('reads a saved engine %s as the %s engine, and keeps it as the choice', (stored, kind) => {
		const s = memoryStorage({ 'utp:engine': stored });
		const a = new EngineSettings(s);
		expect(a.engine.current).toBe(kind);
		expect(a.engine.chosen).toBe(true);
		a.adoptDeviceDefault({ canRunModels: false });
		expect(a.engine.current).toBe(kind);
	});

	it('ignores a saved engine no provider names, for the device default', () => {
		const s = memoryStorage({ 'utp:engine': '"tpu"' });
		const a = new EngineSettings(s);
		expect(a.engine.chosen).toBe(false);
		a.adoptDeviceDefault({ canRunModels: false });
		expect(a.engine.current).toBe('cpu');
	});

	it("keeps the user's engine over the device default", () => {
		const s = memoryStorage({ 'utp:engine': '"webllm"' });
		const a = new EngineSettings(s);
		a.adoptDeviceDefault({ canRunModels: false });
		expect(a.engine.current).toBe('webgpu');
		const b = new EngineSettings(memoryStorage());
		b.engine.current = 'server';
		b.adoptDeviceDefault({ canRunModels: true });
		expect(b.engine.current).toBe('server');
	});

	it('blocks the device engine while the GPU is unchecked or cannot run models', () => {
		const s = new EngineSettings(memoryStorage());
		s.engine.current = 'webgpu';
		const env = { canRunModels: false, shaderF16: false };
		expect(s.problems({ ...env, checked: false })).toEqual([
			'Checking whether this device can run models…'
		]);
		expect(s.problems({ ...env, checked: true })).toEqual([
			'This device cannot run models on its GPU (no WebGPU): use “This device (CPU)” or an OpenAI-compatible server.'
		]);
		expect(s.problems({ ...env, canRunModels: true, checked: true })).toEqual([]);
	});

	it('picks q4f32 variants without shader-f16 and names the template repos to try', () => {
		const s = new EngineSettings(memoryStorage());
		s.models.webgpu.generatorKey.current = 'qwen3-0.6b';
		expect(s.generatorId({ shaderF16: false })).toBe('Qwen3-0.6B-q4f32_1-MLC');
		expect(s.generatorId({ shaderF16: true })).toBe('Qwen3-0.6B-q4f16_1-MLC');
		expect(s.templateSpec({ shaderF16: false })).toEqual({
			kind: 'repo',
			repos: ['mlc-ai/Qwen3-0.6B-q4f32_1-MLC', 'Qwen/Qwen3-0.6B']
		});
	});

	it('for a server, uses the typed URL or file as the template and the model as the judge fallback', () => {
		const s = new EngineSettings(memoryStorage());
		s.engine.current = 'server';
		s.models.server.modelId.current = 'served-model';
		expect(s.judgeId({ shaderF16: false })).toBe('served-model');
		// Nothing chosen: the server's own template (llama-server /props), which Check server tells.
		expect(s.templateSpec({ shaderF16: false })).toEqual({
			kind: 'server',
			baseUrl: 'http://127.0.0.1:8000/v1',
			repos: []
		});
		s.apiKey = 'k';
		s.models.server.modelId.current = 'Qwen/Qwen3-0.6B';
		expect(s.templateSpec({ shaderF16: false })).toEqual({
			kind: 'server',
			baseUrl: 'http://127.0.0.1:8000/v1',
			apiKey: 'k',
			repos: ['Qwen/Qwen3-0.6B']
		});
		s.templateRepo.current = 'Qwen/Qwen2.5-0.5B-Instruct';
		expect(s.templateSpec({ shaderF16: false })).toEqual({
			kind: 'repo',
			repos: ['Qwen/Qwen2.5-0.5B-Instruct']
		});
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
