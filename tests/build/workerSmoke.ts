/**
 * Browser smoke test of the real engine worker: builds a tiny page around createWebLLMEngine, opens
 * it in headless Chromium (WebGPU via SwiftShader) and drives the real MLCEngine through our
 * protocol. No network: the model record points at a local server that answers 404, so loading
 * fails, and the worker names the file that is missing (its diagnosis of a model's own URLs).
 * Then a catalog model through a model mirror on the same server, which holds the model's
 * mlc-chat-config.json but not its model library: web-llm asks the mirror (never huggingface.co or
 * GitHub) for the files its records name, and the load's error names the mirror's missing file.
 * Last, a second mirror whose index.json lists a different size for that config: the copy web-llm
 * took is checked against the index, named with both sizes, and dropped from web-llm's cache.
 *   npx tsx tests/build/workerSmoke.ts    (needs /usr/bin/chromium or CHROMIUM_PATH)
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findVariant } from '../../src/lib/engines/webgpu/catalog.ts';
import { mirrorPath } from '../../src/lib/engines/mirror.ts';
import { CHROMIUM, openSmokePage } from './smokeHost.ts';
import type { MirrorSmokeResult, SmokeResult } from './smokePage.ts';

const PAGE = fileURLToPath(new URL('./smokePage.ts', import.meta.url));
const TIMEOUT_MS = 120_000;
/** The classroom preset's WebGPU model, in the variant SwiftShader can run (no shader-f16). */
const MIRROR_MODEL = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const MIRROR_CONFIG = `/mirror/mlc-ai/${MIRROR_MODEL}/resolve/main/mlc-chat-config.json`;
const MIRROR_LIB = `/mirror/${mirrorPath(findVariant(MIRROR_MODEL)?.variant.model_lib ?? '')}`;
/** The second mirror: the same config, and an index.json that says it is 7 bytes longer. */
const INDEXED = '/indexed';
const INDEXED_CONFIG = MIRROR_CONFIG.replace('/mirror/', `${INDEXED}/`);

function checkIndexed(out: MirrorSmokeResult, requests: string[], config: string) {
	const failures: string[] = [];
	const expect = (ok: boolean, what: string) => ok || failures.push(what);
	const message =
		typeof out.load === 'object' && out.load ? String(out.load.message ?? '') : String(out.load);
	const path = INDEXED_CONFIG.slice(INDEXED.length + 1);
	const [got, want] = [config.length, config.length + 7].map((n) => n.toLocaleString('en'));
	expect(out.indexed, "the page read the second mirror's index.json");
	expect(
		requests.includes(`GET ${INDEXED_CONFIG} 200`),
		`web-llm took the config from the second mirror (${INDEXED_CONFIG})`
	);
	expect(
		typeof out.load === 'object' &&
			out.load?.code === 'bad_model' &&
			message.includes(
				`The model mirror's ${path} is ${got} bytes, but its index.json says ${want}`
			),
		`the load's error names the config whose size differs from index.json: "${message}"`
	);
	expect(!out.config_kept, "the config of the wrong size left web-llm's cache");
	return failures;
}

function checkMirror(out: MirrorSmokeResult, requests: string[], seen: string[], origin: string) {
	const failures: string[] = [];
	const expect = (ok: boolean, what: string) => ok || failures.push(what);
	const message =
		typeof out.load === 'object' && out.load ? String(out.load.message ?? '') : String(out.load);
	expect(out.cached === false, 'the mirrored model is not cached in a fresh profile');
	expect(
		requests.includes(`GET ${MIRROR_CONFIG} 200`),
		`web-llm read the model's config from the mirror (${MIRROR_CONFIG})`
	);
	expect(
		requests.some((r) => r.startsWith(`GET ${MIRROR_LIB} 404`)),
		`the model library was asked of the mirror (${MIRROR_LIB})`
	);
	expect(
		typeof out.load === 'object' &&
			out.load?.code === 'bad_model' &&
			message.includes(`${origin}${MIRROR_LIB} answers HTTP 404`) &&
			!/huggingface|Your model/i.test(message),
		`the load's error names the mirror's missing model library: "${message}"`
	);
	const away = seen.filter((u) => !u.startsWith(origin));
	expect(away.length === 0, `nothing but the mirror was asked: ${away.join(', ')}`);
	expect(
		seen.some((u) => u.endsWith(MIRROR_CONFIG)),
		"the browser's own request log shows the worker's fetches (so the check above can fail)"
	);
	return failures;
}

function check(out: SmokeResult): string[] {
	const failures: string[] = [];
	const expect = (ok: boolean, what: string) => ok || failures.push(what);
	expect(out.gpu.webgpu, 'probeGpu finds WebGPU');
	expect(out.stats.running === null && out.stats.loaded.length === 0, 'a fresh worker is idle');
	expect(out.cached === false, 'nothing is cached in a fresh profile');
	const code = (x: unknown) => (typeof x === 'object' && x ? (x as { code?: string }).code : x);
	expect(
		code(out.complete_before_load) === 'model_not_loaded',
		'complete before load → model_not_loaded'
	);
	const message = (x: unknown) =>
		typeof x === 'object' && x ? String((x as { message?: unknown }).message ?? '') : '';
	expect(
		code(out.load) === 'bad_model' &&
			/mlc-chat-config\.json.*404|404.*mlc-chat-config\.json/s.test(message(out.load)),
		'loading from a 404 origin → bad_model naming the missing config and its 404'
	);
	expect(code(out.aborted_load) === 'aborted', 'an aborted load → AbortError');
	expect(out.stats_after.loaded.length === 0, 'nothing is loaded after failures');
	return failures;
}

async function main(): Promise<number> {
	if (!existsSync(CHROMIUM)) {
		console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
		return 1;
	}
	const config = JSON.stringify({
		model_type: 'qwen2',
		tokenizer_files: ['tokenizer.json'],
		vocab_size: 151936
	});
	const index = {
		format: 'user-turn-probe-mirror/1',
		files: { [INDEXED_CONFIG.slice(INDEXED.length + 1)]: { size: config.length + 7 } },
		models: {}
	};
	const { page, origin, requests, close } = await openSmokePage({
		module: PAGE,
		exports: ['runSmoke', 'runMirrorSmoke'],
		files: {
			[MIRROR_CONFIG]: config,
			[INDEXED_CONFIG]: config,
			[`${INDEXED}/index.json`]: JSON.stringify(index)
		},
		webgpu: true,
		timeoutMs: TIMEOUT_MS,
		prefix: 'webllm-smoke-'
	});
	try {
		// A string, not a function: tsx's __name helpers do not exist in the page.
		const out = (await page.evaluate(`runSmoke(${JSON.stringify(origin)})`)) as SmokeResult;
		console.log(JSON.stringify(out, null, '\t'));
		const seen: string[] = [];
		page.context().on('request', (r) => void seen.push(r.url()));
		const mirrored = (await page.evaluate(
			`runMirrorSmoke(${JSON.stringify(`${origin}/mirror`)}, ${JSON.stringify(MIRROR_MODEL)})`
		)) as MirrorSmokeResult;
		const indexed = (await page.evaluate(
			`runMirrorSmoke(${JSON.stringify(`${origin}${INDEXED}`)}, ${JSON.stringify(MIRROR_MODEL)}, true)`
		)) as MirrorSmokeResult;
		console.log(
			JSON.stringify(
				{
					mirror: mirrored,
					indexed,
					requests: requests.filter((r) => r.includes('/mirror/') || r.includes(`${INDEXED}/`))
				},
				null,
				'\t'
			)
		);
		const failures = [
			...check(out),
			...checkMirror(mirrored, requests, seen, origin),
			...checkIndexed(indexed, requests, config)
		];
		for (const f of failures) console.error(`FAILED: ${f}`);
		if (failures.length === 0) console.log('\nWorker smoke test passed.');
		return failures.length === 0 ? 0 : 1;
	} finally {
		await close();
	}
}

process.exit(await main());
