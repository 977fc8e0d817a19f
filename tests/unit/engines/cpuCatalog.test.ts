import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	DEFAULT_CPU_GENERATOR,
	DEFAULT_CPU_JUDGE,
	findGguf,
	GGUF_CATALOG,
	ggufUrl,
	ggufUrlProblem,
	WLLAMA_VERSION
} from '../../../src/lib/engines/cpu/catalog.ts';

describe('GGUF catalog', () => {
	it('names the installed wllama version (recorded in run manifests)', () => {
		const pkg = JSON.parse(
			readFileSync(
				new URL('../../../node_modules/@wllama/wllama/package.json', import.meta.url),
				'utf8'
			)
		) as { version: string };
		expect(WLLAMA_VERSION).toBe(pkg.version);
	});

	it('has unique keys, .gguf files, a template repo and no invented sizes', () => {
		expect(new Set(GGUF_CATALOG.map((e) => e.key)).size).toBe(GGUF_CATALOG.length);
		for (const e of GGUF_CATALOG) {
			expect(e.file).toMatch(/\.gguf$/);
			expect(e.repo).toMatch(/^[\w.-]+\/[\w.-]+-GGUF$/);
			expect(e.template_repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
			expect(e.context_window).toBeGreaterThanOrEqual(4096);
			// Unknown is null; a number must be a real size.
			expect(e.download_MB === null || e.download_MB > 0).toBe(true);
			expect(ggufUrlProblem(ggufUrl(e))).toBeNull();
		}
	});

	it('has the defaults, the generator suggested for generating and the judge for judging', () => {
		expect(findGguf(DEFAULT_CPU_GENERATOR)?.roles).toContain('generator');
		expect(findGguf(DEFAULT_CPU_JUDGE)?.roles).toContain('judge');
		expect(findGguf('nope')).toBeUndefined();
	});

	it('builds Hugging Face resolve URLs', () => {
		expect(ggufUrl({ repo: 'Qwen/Qwen3-0.6B-GGUF', file: 'Qwen3-0.6B-Q8_0.gguf' })).toBe(
			'https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf'
		);
	});

	it('says what is wrong with a typed URL', () => {
		expect(ggufUrlProblem('')).toMatch(/Enter the URL/);
		expect(ggufUrlProblem('not a url')).toMatch(/is not a URL/);
		expect(ggufUrlProblem('ftp://host/m.gguf')).toMatch(/https:\/\//);
		expect(ggufUrlProblem('https://huggingface.co/Qwen/Qwen3-0.6B-GGUF')).toMatch(
			/\.gguf file itself/
		);
		expect(ggufUrlProblem('http://127.0.0.1:8080/models/tiny.gguf')).toBeNull();
		// wllama accepts a query string after .gguf (signed URLs).
		expect(ggufUrlProblem('https://h/m.GGUF?download=true')).toBeNull();
	});
});
