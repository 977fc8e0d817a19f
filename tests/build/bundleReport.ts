/**
 * Reads a built dist/ (as data) and checks the engine splits: web-llm (2 MB gzipped) and wllama
 * (the CPU engine's JS; its wasm is a separate asset) must each live in exactly one chunk that only
 * a worker loads, never the same chunk (so the two never load together), and the page's initial
 * JS must stay small. Pure: checkBundle.ts does the file system, the unit test feeds it synthetic
 * builds.
 */
import { gzipSync } from 'node:zlib';
import { posix } from 'node:path';

/** Strings only web-llm's own source contains (0.2.86 lib/index.js); our code must not. */
export const WEBLLM_MARKERS = [
	'It can take a while when we first visit this page to populate the cache',
	'Cannot find model record in appConfig for'
];

/** Strings only wllama's own source contains (3.8.1 esm/index.js); our code must not. */
export const WLLAMA_MARKERS = [
	'loadModel() is not yet called',
	'Error while calling start function'
];

/**
 * Keys only a tokenizer's own files carry. The chat templates ship from npm packages that also hold
 * a multi-megabyte tokenizer.json; only the template may reach the bundle.
 */
export const TOKENIZER_MARKERS = ['added_tokens_decoder', 'pre_tokenizer'];

/**
 * Public CDNs that serve code, fonts or wasm. No built file may name one: a school filter that
 * blocks it, or any offline use, would break what it serves (wllama names jsDelivr for its
 * compatibility build unless vite.wllamaAssets.ts points it at our origin).
 */
export const CDN_HOSTS = [
	'jsdelivr.net',
	'unpkg.com',
	'cdnjs.cloudflare.com',
	'esm.sh',
	'esm.run',
	'skypack.dev',
	'jspm.io',
	'jspm.dev',
	'ajax.googleapis.com',
	'fonts.googleapis.com',
	'fonts.gstatic.com',
	'code.jquery.com',
	'statically.io',
	'rawgit.com',
	'githack.com'
];

/** A CDN host or any subdomain of it, not inside a longer name (jsdelivr.net, cdn.jsdelivr.net). */
const CDN_HOST = new RegExp(
	`(?<![\\w.-])(?:[\\w-]+\\.)*(?:${CDN_HOSTS.map(escape).join('|')})(?![\\w-])`,
	'g'
);

/** Each built text file that names a CDN host, with the hosts it names. */
export function cdnMentions(files: Map<string, string>): { file: string; hosts: string[] }[] {
	const out: { file: string; hosts: string[] }[] = [];
	for (const [file, text] of files) {
		const hosts = [...new Set(text.match(CDN_HOST) ?? [])].sort();
		if (hosts.length > 0) out.push({ file, hosts });
	}
	return out;
}

/** wllama's wasm file as Vite names it (wllama-<hash>.wasm). */
const WLLAMA_WASM = /wllama-[\w-]+\.wasm/g;

export const INITIAL_JS_LIMIT_KB = 100;

export interface BundleReport {
	ok: boolean;
	violations: string[];
	/** Scripts index.html loads (module scripts and modulepreloads). */
	entry_files: string[];
	/** Entries plus everything they import statically: what the page downloads before any click. */
	initial_files: string[];
	initial_js_gzip_kb: number;
	limit_kb: number;
	webllm_chunks: string[];
	webllm_chunk_gzip_kb: number | null;
	worker_files: string[];
	/** Files that mention the web-llm chunk by name. */
	webllm_referenced_by: string[];
	wllama_chunks: string[];
	wllama_chunk_gzip_kb: number | null;
	wllama_referenced_by: string[];
	/** Files that name wllama's wasm asset (only the CPU worker's graph may). */
	wllama_wasm_referenced_by: string[];
	/** Built files that name a public CDN host (must be none). */
	cdn_mentions: { file: string; hosts: string[] }[];
}

/** `import … from "x"`, `import "x"`, `export … from "x"` (minified or not), never `import(`. */
const STATIC_IMPORT =
	/(?<![\w$.])(?:import|export)\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*(?:\s*as\s*[\w$]+)?)?\s*(?:from)?\s*(["'])([^"'\n]+?)\1/g;
const HTML_SCRIPT = /<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["']/g;
const HTML_PRELOAD = /<link\b[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["']/g;

export function gzipKb(code: string): number {
	return round2(gzipSync(code).length / 1024);
}

function round2(x: number): number {
	return Math.round(x * 100) / 100;
}

/** Map an href or import specifier to a key of `files`, or null if it is not a built file. */
function resolve(files: Map<string, string>, from: string, spec: string): string | null {
	if (/^(https?:|data:|blob:)/.test(spec)) return null;
	const joined = spec.startsWith('/')
		? spec.slice(1)
		: posix.normalize(posix.join(posix.dirname(from), spec));
	if (files.has(joined)) return joined;
	// A base path (/user-turn-probe/assets/x.js): match by the path under dist.
	for (const key of files.keys()) if (joined.endsWith(`/${key}`)) return key;
	return null;
}

function staticImports(files: Map<string, string>, file: string): string[] {
	const code = files.get(file) ?? '';
	const out: string[] = [];
	for (const m of code.matchAll(STATIC_IMPORT)) {
		const target = resolve(files, file, m[2]);
		if (target && target !== file) out.push(target);
	}
	return out;
}

function closure(files: Map<string, string>, roots: string[]): string[] {
	const seen = new Set<string>();
	const stack = [...roots];
	while (stack.length > 0) {
		const file = stack.pop() as string;
		if (seen.has(file)) continue;
		seen.add(file);
		stack.push(...staticImports(files, file));
	}
	return [...seen].sort();
}

/**
 * @param html the built index.html
 * @param files JS files keyed by their path under dist ("assets/index-abc.js")
 * @param others the other text files (CSS, JSON, the web manifest, SVG…), checked for CDN hosts
 */
export function analyzeBundle(
	html: string,
	files: Map<string, string>,
	limitKb: number = INITIAL_JS_LIMIT_KB,
	others: Map<string, string> = new Map()
): BundleReport {
	const violations: string[] = [];
	const hrefs = [...html.matchAll(HTML_SCRIPT), ...html.matchAll(HTML_PRELOAD)].map((m) => m[1]);
	const entries = [...new Set(hrefs.map((h) => resolve(files, 'index.html', h)))].filter(
		(f): f is string => f !== null
	);
	if (entries.length === 0)
		violations.push('index.html loads no module script that exists in dist.');
	const initial = closure(files, entries);
	// Each file is its own HTTP response, so sizes add up per file.
	const initialKb = round2(initial.reduce((sum, f) => sum + gzipKb(files.get(f) ?? ''), 0));

	const workers = [...files.keys()].filter((f) => /worker/i.test(posix.basename(f)));
	const workerClosure = new Set(closure(files, workers));
	const lib = (label: string, markers: string[]) =>
		checkLibrary(files, label, markers, initial, workers, workerClosure);
	const webllm = lib('web-llm', WEBLLM_MARKERS);
	const wllama = lib('wllama', WLLAMA_MARKERS);
	violations.push(...webllm.violations, ...wllama.violations);
	for (const chunk of webllm.chunks) {
		if (wllama.chunks.includes(chunk)) {
			violations.push(`${chunk} holds both web-llm and wllama: they must load separately.`);
		}
	}
	const wasmRefs = [...files.keys()].filter((f) => (files.get(f) ?? '').match(WLLAMA_WASM));
	for (const file of wasmRefs) {
		if (!workerClosure.has(file)) violations.push(`${file} names wllama's wasm outside a worker.`);
	}
	for (const [file, text] of files) {
		const marker = TOKENIZER_MARKERS.find((m) => text.includes(m));
		if (marker)
			violations.push(`${file} carries tokenizer data ("${marker}"): ship only the template.`);
	}
	const cdn = cdnMentions(new Map([['index.html', html], ...files, ...others]));
	for (const { file, hosts } of cdn) {
		violations.push(`${file} names a CDN (${hosts.join(', ')}): serve it from the app's origin.`);
	}
	if (initialKb > limitKb) {
		violations.push(`Initial JS is ${initialKb} KB gzipped, over the ${limitKb} KB limit.`);
	}
	return {
		ok: violations.length === 0,
		violations,
		entry_files: entries,
		initial_files: initial,
		initial_js_gzip_kb: initialKb,
		limit_kb: limitKb,
		webllm_chunks: webllm.chunks,
		webllm_chunk_gzip_kb: webllm.gzipKb,
		worker_files: workers,
		webllm_referenced_by: webllm.referencedBy,
		wllama_chunks: wllama.chunks,
		wllama_chunk_gzip_kb: wllama.gzipKb,
		wllama_referenced_by: wllama.referencedBy,
		wllama_wasm_referenced_by: wasmRefs,
		cdn_mentions: cdn
	};
}

/**
 * One library's rules: in exactly one chunk, outside the page's initial graph, inside a worker's
 * graph, and named by page code only as the URL of the worker it is.
 */
function checkLibrary(
	files: Map<string, string>,
	label: string,
	markers: string[],
	initial: string[],
	workers: string[],
	workerClosure: Set<string>
): { chunks: string[]; gzipKb: number | null; referencedBy: string[]; violations: string[] } {
	const violations: string[] = [];
	const chunks = [...files.keys()].filter((f) => {
		const code = files.get(f) ?? '';
		return markers.some((marker) => code.includes(marker));
	});
	if (chunks.length !== 1) {
		violations.push(
			`Expected ${label} in exactly one chunk, found ${chunks.length}: ${chunks.join(', ') || 'none'}.`
		);
	}
	for (const chunk of chunks) {
		if (initial.includes(chunk)) {
			violations.push(`${chunk} (${label}) is in the page's initial static import graph.`);
		}
		if (!workerClosure.has(chunk)) {
			violations.push(`${chunk} (${label}) is not loaded by an engine worker.`);
		}
	}
	const chunk = chunks.length === 1 ? chunks[0] : null;
	const referencedBy = chunk
		? [...files.keys()].filter(
				(f) => f !== chunk && (files.get(f) ?? '').includes(posix.basename(chunk))
			)
		: [];
	for (const file of referencedBy) {
		if (workerClosure.has(file)) continue;
		// The page may name the worker file only to start it: new Worker(new URL("…worker….js", …)).
		const asWorkerUrl = new RegExp(
			`new URL\\(\\s*[\`'"][^\`'"]*${escape(posix.basename(chunk ?? ''))}`
		);
		const chunkIsWorker = chunk !== null && workers.includes(chunk);
		if (!(chunkIsWorker && asWorkerUrl.test(files.get(file) ?? ''))) {
			violations.push(`${file} references the ${label} chunk ${chunk} outside a worker.`);
		}
	}
	return {
		chunks,
		gzipKb: chunk ? gzipKb(files.get(chunk) ?? '') : null,
		referencedBy,
		violations
	};
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
