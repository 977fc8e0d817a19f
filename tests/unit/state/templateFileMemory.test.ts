import { describe, expect, it } from 'vitest';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

const GPU = { shaderF16: true };
const QWEN_FILE = { name: 'qwen.jinja', text: '{{ messages }}' };

describe('a chosen template file is remembered per model', () => {
	it('comes back on the next visit for the same model, and is the file spec', () => {
		const storage = memoryStorage();
		const first = new EngineSettings(storage);
		first.models.webgpu.generatorKey.current = 'qwen3-0.6b';
		first.templateKind.current = 'file';
		first.templateFile = QWEN_FILE;

		const next = new EngineSettings(storage);
		expect(next.templateKind.current).toBe('file');
		expect(next.templateFile).toEqual(QWEN_FILE);
		expect(next.templateSpec(GPU)).toEqual({
			kind: 'file',
			name: 'qwen.jinja',
			text: '{{ messages }}',
			eos_token: undefined
		});
	});

	it("another model never gets this model's file; switching back restores it", () => {
		const s = new EngineSettings(memoryStorage());
		s.models.webgpu.generatorKey.current = 'qwen3-0.6b';
		s.templateKind.current = 'file';
		s.templateFile = QWEN_FILE;
		s.models.webgpu.generatorKey.current = 'llama-3.2-1b-instruct';
		expect(s.templateFile).toBeNull();
		expect(s.templateSpec(GPU)).toBeNull();
		expect(s.problems({ ...GPU, canRunModels: true })).toContain(
			'Choose a .jinja or tokenizer_config.json file.'
		);
		const llamaFile = { name: 'llama.jinja', text: '{{ bos_token }}' };
		s.templateFile = llamaFile;
		s.models.webgpu.generatorKey.current = 'qwen3-0.6b';
		expect(s.templateFile).toEqual(QWEN_FILE);
		s.models.webgpu.generatorKey.current = 'llama-3.2-1b-instruct';
		expect(s.templateFile).toEqual(llamaFile);
	});

	it('keys a server model by its served id and a CPU model by its catalog key', () => {
		const s = new EngineSettings(memoryStorage());
		s.engine.current = 'server';
		s.models.server.modelId.current = 'my-model';
		s.templateFile = QWEN_FILE;
		expect(s.templateFileKey()).toBe('openai:my-model');
		// The server now serves another model under another id: the old file does not apply.
		s.models.server.modelId.current = 'other-model';
		expect(s.templateFile).toBeNull();
		s.engine.current = 'cpu';
		expect(s.templateFileKey()).toMatch(/^wllama:/);
		expect(s.templateFile).toBeNull();
	});

	it('forgets a file when set to null, and ignores stored values of another shape', () => {
		const storage = memoryStorage();
		const s = new EngineSettings(storage);
		s.templateFile = QWEN_FILE;
		s.templateFile = null;
		expect(new EngineSettings(storage).templateFile).toBeNull();

		storage.data.set('utp:template-files', JSON.stringify({ 'webllm:qwen3-0.6b': { name: 3 } }));
		expect(new EngineSettings(storage).templateFile).toBeNull();
		storage.data.set('utp:template-files', '"not an object"');
		expect(new EngineSettings(storage).templateFile).toBeNull();
		storage.data.set('utp:template-files', '{broken json');
		expect(new EngineSettings(storage).templateFile).toBeNull();
	});
});
