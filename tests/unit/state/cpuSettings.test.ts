import { describe, expect, it } from 'vitest';
import { ggufUrl, findGguf } from '../../../src/lib/engines/cpu/catalog.ts';
import { CUSTOM_GGUF } from '../../../src/lib/engines/cpu/settings.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

const ENV = { canRunModels: false, shaderF16: false, checked: true };
const TINY = 'http://127.0.0.1:9/models/tiny.gguf';

describe('EngineSettings on the CPU engine', () => {
	it('uses the catalog file URLs as model ids and the original repo for the template', () => {
		const s = new EngineSettings(memoryStorage());
		s.engine.current = 'cpu';
		const gen = findGguf(s.models.cpu.generatorKey.current);
		const judge = findGguf(s.models.cpu.judgeKey.current);
		if (!gen || !judge) throw new Error('the default CPU models are not in the catalog');
		expect(s.generatorId(ENV)).toBe(ggufUrl(gen));
		expect(s.judgeId(ENV)).toBe(ggufUrl(judge));
		expect(s.templateSpec(ENV)).toEqual({ kind: 'repo', repos: [gen.template_repo] });
		// No WebGPU is not a problem here: the CPU engine needs none.
		expect(s.problems(ENV)).toEqual([]);
	});

	it('takes your own GGUF URL, its template from the file, and says what is wrong with a bad one', () => {
		const s = new EngineSettings(memoryStorage());
		s.engine.current = 'cpu';
		s.models.cpu.generatorKey.current = CUSTOM_GGUF;
		expect(s.problems(ENV)).toContain('Generator: Enter the URL of a .gguf file.');
		s.models.cpu.generatorUrl.current = 'https://huggingface.co/org/model';
		expect(s.problems(ENV).join(' ')).toMatch(/Generator: The URL must point at the \.gguf file/);
		expect(s.templateSpec(ENV)).toBeNull();
		s.models.cpu.generatorUrl.current = `  ${TINY} `;
		expect(s.generatorId(ENV)).toBe(TINY);
		expect(s.templateSpec(ENV)).toEqual({ kind: 'gguf', url: TINY });
		expect(s.templateLabel(ENV)).toBe(TINY);
		expect(s.problems(ENV)).toEqual([]);
		// A typed template repo still wins over the file's own template.
		s.templateRepo.current = 'Qwen/Qwen2.5-0.5B-Instruct';
		expect(s.templateSpec(ENV)).toEqual({ kind: 'repo', repos: ['Qwen/Qwen2.5-0.5B-Instruct'] });
	});

	it('checks a custom judge URL too, and persists every CPU choice', () => {
		const storage = memoryStorage();
		const s = new EngineSettings(storage);
		s.engine.current = 'cpu';
		s.models.cpu.judgeKey.current = CUSTOM_GGUF;
		s.models.cpu.judgeUrl.current = 'ftp://x/y.gguf';
		expect(s.problems(ENV).join(' ')).toMatch(/^Judge: /);
		s.models.cpu.judgeUrl.current = TINY;
		const again = new EngineSettings(storage);
		expect(again.engine.current).toBe('cpu');
		expect(again.judgeId(ENV)).toBe(TINY);
	});
});
