import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	analyzeBundle,
	cdnMentions,
	WEBLLM_MARKERS,
	WLLAMA_MARKERS
} from '../../build/bundleReport.ts';

/** Synthetic builds shaped like Vite 8's minified output. */
const HTML = `<!doctype html><html><head>
<script type="module" crossorigin src="./assets/index-a1.js"></script>
<link rel="stylesheet" crossorigin href="./assets/index-a1.css"></head><body></body></html>`;
const WEBLLM = `var x=1;console.log(\`${WEBLLM_MARKERS[0]}\`);`;
const START_WORKER =
	'function mi(e={}){return new pi(new Worker(new URL(new URL(`webgpu.worker-w1.js`,import.meta.url).href,``+import.meta.url),{type:`module`}))}';
const WLLAMA = `class W{load(){throw new Error("${WLLAMA_MARKERS[0]}")}}const u=new URL("wllama-x9.wasm",import.meta.url);`;
const START_CPU =
	'function ci(){return new Worker(new URL(new URL(`cpu.worker-c1.js`,import.meta.url).href,``+import.meta.url),{type:`module`})}';

function build(files: Record<string, string>): Map<string, string> {
	return new Map(Object.entries(files));
}

const GOOD = {
	'assets/index-a1.js': `import{a as e}from"./shared-s1.js";${START_WORKER};const v={setup:()=>import(\`./SetupView-v1.js\`)};`,
	'assets/shared-s1.js': 'export const a=1;',
	'assets/SetupView-v1.js': `import{a as e}from"./index-a1.js";${START_CPU};export{e as default};`,
	'assets/webgpu.worker-w1.js': WEBLLM,
	'assets/cpu.worker-c1.js': WLLAMA
};

describe('analyzeBundle', () => {
	it('passes a build where web-llm lives only in the worker the page starts by URL', () => {
		const report = analyzeBundle(HTML, build(GOOD));
		expect(report.violations).toEqual([]);
		expect(report.ok).toBe(true);
		expect(report.entry_files).toEqual(['assets/index-a1.js']);
		expect(report.initial_files).toEqual(['assets/index-a1.js', 'assets/shared-s1.js']);
		expect(report.webllm_chunks).toEqual(['assets/webgpu.worker-w1.js']);
		expect(report.webllm_chunk_gzip_kb).toBeGreaterThan(0);
	});

	it('fails when a tokenizer file (not only its chat template) reaches the bundle', () => {
		const report = analyzeBundle(
			HTML,
			build({
				...GOOD,
				'assets/shippedTemplates-t1.js':
					'export default[{chat_template:"{{x}}",added_tokens_decoder:{"0":{content:"<unk>"}}}]'
			})
		);
		expect(report.ok).toBe(false);
		expect(report.violations.join('\n')).toMatch(
			/shippedTemplates-t1\.js carries tokenizer data \("added_tokens_decoder"\)/
		);
	});

	it('passes web-llm split into a chunk the worker imports statically', () => {
		const report = analyzeBundle(
			HTML,
			build({
				...GOOD,
				'assets/webgpu.worker-w1.js': 'import{M as e}from"./lib-l1.js";new e;',
				'assets/lib-l1.js': WEBLLM
			})
		);
		expect(report.ok).toBe(true);
		expect(report.webllm_referenced_by).toEqual(['assets/webgpu.worker-w1.js']);
	});

	it('fails when the entry statically imports web-llm', () => {
		const report = analyzeBundle(
			HTML,
			build({ ...GOOD, 'assets/shared-s1.js': `export const a=1;${WEBLLM}` })
		);
		expect(report.ok).toBe(false);
		expect(report.violations.join('\n')).toMatch(/exactly one chunk, found 2/);
		expect(report.violations.join('\n')).toMatch(
			/shared-s1\.js \(web-llm\) is in the page's initial/
		);
	});

	it('fails when the page lazy-loads a web-llm chunk outside the worker', () => {
		const report = analyzeBundle(
			HTML,
			build({
				...GOOD,
				'assets/index-a1.js': `${START_WORKER};const m=()=>import(\`./lib-l1.js\`);`,
				'assets/webgpu.worker-w1.js': 'import{M as e}from"./lib-l1.js";',
				'assets/lib-l1.js': WEBLLM
			})
		);
		expect(report.violations).toEqual([
			'assets/index-a1.js references the web-llm chunk assets/lib-l1.js outside a worker.'
		]);
	});

	it('fails when no chunk contains web-llm (the worker was never built)', () => {
		const { 'assets/webgpu.worker-w1.js': _, ...noWorker } = GOOD;
		const report = analyzeBundle(HTML, build(noWorker));
		expect(report.violations).toContain('Expected web-llm in exactly one chunk, found 0: none.');
	});

	it('passes wllama only in the CPU worker a lazy view starts, its wasm named only there', () => {
		const report = analyzeBundle(HTML, build(GOOD));
		expect(report.wllama_chunks).toEqual(['assets/cpu.worker-c1.js']);
		expect(report.wllama_referenced_by).toEqual(['assets/SetupView-v1.js']);
		expect(report.wllama_wasm_referenced_by).toEqual(['assets/cpu.worker-c1.js']);
		expect(report.wllama_chunk_gzip_kb).toBeGreaterThan(0);
	});

	it('fails when wllama reaches the page: statically, or through a lazy import of its chunk', () => {
		const inEntry = analyzeBundle(
			HTML,
			build({
				...GOOD,
				'assets/cpu.worker-c1.js': 'self.onmessage=()=>{};',
				'assets/shared-s1.js': WLLAMA
			})
		);
		expect(inEntry.violations).toEqual(
			expect.arrayContaining([
				"assets/shared-s1.js (wllama) is in the page's initial static import graph.",
				'assets/shared-s1.js (wllama) is not loaded by an engine worker.',
				"assets/shared-s1.js names wllama's wasm outside a worker."
			])
		);
		const lazy = analyzeBundle(
			HTML,
			build({
				...GOOD,
				'assets/SetupView-v1.js': 'const m=()=>import(`./wl-l2.js`);export default 1;',
				'assets/cpu.worker-c1.js': 'import{W as e}from"./wl-l2.js";',
				'assets/wl-l2.js': WLLAMA
			})
		);
		expect(lazy.violations).toEqual([
			'assets/SetupView-v1.js references the wllama chunk assets/wl-l2.js outside a worker.'
		]);
	});

	it('fails when web-llm and wllama share a chunk, or wllama is missing', () => {
		const shared = analyzeBundle(
			HTML,
			build({
				...GOOD,
				'assets/webgpu.worker-w1.js': WEBLLM + WLLAMA,
				'assets/cpu.worker-c1.js': ''
			})
		);
		expect(shared.violations).toContain(
			'assets/webgpu.worker-w1.js holds both web-llm and wllama: they must load separately.'
		);
		const { 'assets/cpu.worker-c1.js': _, ...noCpu } = GOOD;
		expect(analyzeBundle(HTML, build(noCpu)).violations).toContain(
			'Expected wllama in exactly one chunk, found 0: none.'
		);
	});

	it('fails when the initial JS is over the gzip limit', () => {
		const big = randomBytes(30 * 1024).toString('base64');
		const report = analyzeBundle(
			HTML,
			build({ ...GOOD, 'assets/shared-s1.js': `export const a="${big}";` }),
			20
		);
		expect(report.initial_js_gzip_kb).toBeGreaterThan(20);
		expect(report.violations.at(-1)).toMatch(/over the 20 KB limit/);
	});

	it('counts modulepreloaded chunks and resolves a GitHub Pages base path', () => {
		const html = `<script type="module" src="/user-turn-probe/assets/index-a1.js"></script>
<link rel="modulepreload" href="/user-turn-probe/assets/SetupView-v1.js">`;
		const report = analyzeBundle(html, build(GOOD));
		expect(report.entry_files).toEqual(['assets/index-a1.js', 'assets/SetupView-v1.js']);
		expect(report.ok).toBe(true);
	});

	it("fails when a built file names a CDN, as wllama's compatibility build does by default", () => {
		// wllama 3.8.1's src/wasm-from-cdn.ts, as the minified CPU worker carries it.
		const cdnWorker = `${WLLAMA};var Jn={worker:\`https://cdn.jsdelivr.net/npm/@wllama/wllama-compat@3.8.1/wasm/wllama.js\`};`;
		const report = analyzeBundle(HTML, build({ ...GOOD, 'assets/cpu.worker-c1.js': cdnWorker }));
		expect(report.ok).toBe(false);
		expect(report.cdn_mentions).toEqual([
			{ file: 'assets/cpu.worker-c1.js', hosts: ['cdn.jsdelivr.net'] }
		]);
		expect(report.violations).toContain(
			"assets/cpu.worker-c1.js names a CDN (cdn.jsdelivr.net): serve it from the app's origin."
		);
	});

	it('checks HTML, CSS and the other text files for CDN hosts too', () => {
		const html = `${HTML}<link rel="stylesheet" href="https://unpkg.com/x@1/x.css">`;
		const others = build({
			'assets/index-a1.css': '@import url("https://fonts.googleapis.com/css?family=Inter");',
			'manifest.webmanifest': '{"icons":[{"src":"favicon.svg"}]}'
		});
		const report = analyzeBundle(html, build(GOOD), undefined, others);
		expect(report.cdn_mentions).toEqual([
			{ file: 'index.html', hosts: ['unpkg.com'] },
			{ file: 'assets/index-a1.css', hosts: ['fonts.googleapis.com'] }
		]);
		expect(report.ok).toBe(false);
	});

	it('names CDN hosts and their subdomains, not longer names that end like one', () => {
		const found = cdnMentions(
			build({
				'a.js': 'fetch("https://esm.sh/chart.js");fetch("//cdn.skypack.dev/x")',
				'b.js': 'const host="notunpkg.com";const file="esm.shim.js";const f="my-jsdelivr.net.js"',
				'c.js': 'fetch("https://huggingface.co/x/resolve/main/m.gguf")'
			})
		);
		expect(found).toEqual([{ file: 'a.js', hosts: ['cdn.skypack.dev', 'esm.sh'] }]);
	});
});
