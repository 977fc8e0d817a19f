/**
 * Real inference through the CPU engine in Chromium with WebGPU off: builds a page around
 * createCpuEngine (the real worker, wllama 3.8.1), serves two tiny real models from 127.0.0.1 (the
 * tests/helpers/tinyModel GGUF: one plain, one that emits tokens which are not valid UTF-8 on their
 * own), and checks load progress, cache, streamed raw completions with stop and max_tokens,
 * greedy and seeded determinism, the grammar-constrained judge, abort, and that cutting the
 * split-UTF-8 model at every length never kills the worker; a GGUF with its header only is named as
 * invalid once its runtime dies twice.
 *   npx tsx tests/build/cpuSmoke.ts [--hazard]    (needs /usr/bin/chromium or CHROMIUM_PATH)
 * --hazard also runs wllama's own non-streamed completion on the split model and reports whether
 * it dies (informational: the reason the engine streams).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gguf } from '@huggingface/gguf';
import { fileURLToPath } from 'node:url';
import { serveGguf } from '../helpers/ggufServer.ts';
import { buildTinyModel } from '../helpers/tinyModel/index.ts';
import { CHROMIUM, openSmokePage } from './smokeHost.ts';

const PAGE = fileURLToPath(new URL('./cpuSmokePage.ts', import.meta.url));
const TIMEOUT_MS = 300_000;

type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function check(out: Out, pairs: string[]): string[] {
	const failures: string[] = [];
	const expect = (ok: unknown, what: string) => ok || failures.push(what);
	// The header-only file loads, its first generation kills the runtime (restarted), the second
	// says the file is invalid and names it.
	const [first, second] = (out.header_only ?? []).map((r: Out) => r?.error);
	expect('ok' in (out.header_only_load ?? {}), 'wllama loads a header-only GGUF');
	expect(
		first?.code === 'unknown' && first.message.includes('header-only.gguf'),
		`a header-only GGUF's first generation restarts the runtime (${JSON.stringify(first)})`
	);
	expect(
		second?.code === 'bad_model' &&
			second.message.includes('header-only.gguf') &&
			second.message.includes('invalid or incomplete'),
		`a header-only GGUF is then named as invalid (${JSON.stringify(second)})`
	);
	expect(out.cached_before === false, 'nothing is cached in a fresh profile');
	expect(
		out.complete_before_load?.error?.code === 'model_not_loaded',
		'complete before load → model_not_loaded'
	);
	expect(
		out.progress.monotone && out.progress.last?.fraction === 1,
		'load progress is monotone and ends at 1'
	);
	expect(out.progress.phases.includes('downloading'), 'load reports a download phase');
	expect(out.cached_after === true, 'the model is cached after loading');
	expect(
		out.complete.text.length > 0 && out.complete.usage.completion_tokens > 0,
		'a completion has text and usage'
	);
	expect(!out.complete.text.includes('<|im_end|>'), 'the stop string is not in the text');
	expect(out.deltas_add_up, 'streamed deltas add up to the text');
	expect(out.greedy_again, 'greedy completions repeat exactly');
	expect(out.seeded_again, 'seeded completions at T=1 repeat exactly');
	expect(
		out.length.finish_reason === 'length' && out.length.usage.completion_tokens === 3,
		'max_tokens 3 → finish "length" after 3 tokens'
	);
	let judged: unknown;
	try {
		judged = JSON.parse(out.judge?.ok?.text ?? '');
	} catch {
		judged = undefined;
	}
	expect(
		typeof judged === 'object' && judged !== null && 'label' in judged,
		`the judge returns schema JSON (got ${JSON.stringify(out.judge)})`
	);
	expect(
		out.aborted?.error?.name === 'AbortError',
		'an aborted completion rejects with AbortError'
	);
	expect('ok' in (out.after_abort ?? {}), 'the next completion after an abort succeeds');
	expect(
		out.too_long?.error?.code === 'context_window',
		`a prompt over n_ctx → context_window (got ${JSON.stringify(out.too_long)})`
	);
	const cuts = out.split_cuts as { text?: string; error?: unknown }[];
	const errors = cuts.filter((c) => c.error);
	expect(
		errors.length === 0,
		`no cut of the split-UTF-8 model fails (${JSON.stringify(errors[0])})`
	);
	const joined = cuts.map((c) => c.text ?? '').join('');
	expect(
		pairs.some((p) => joined.includes(p)),
		'the split-UTF-8 model emitted its joined characters'
	);
	expect(
		!joined.includes('\uFFFD'),
		'no replacement characters: dangling bytes are held back, not mangled'
	);
	expect(
		'ok' in (out.split_judge ?? {}),
		`the judge on the split model answers (${JSON.stringify(out.split_judge)})`
	);
	expect(out.stats?.restarts === 0, 'the wasm runtime never died');
	expect(out.cached_after_delete === false, 'Delete removes the model from the cache');
	return failures;
}

/** `path` cut where its tensor data starts: a GGUF with its header only. */
async function headerOnlyCopy(path: string): Promise<string> {
	const { tensorDataOffset } = await gguf(path, { allowLocalFile: true });
	const out = join(mkdtempSync(join(tmpdir(), 'cpu-smoke-')), 'header-only.gguf');
	writeFileSync(out, readFileSync(path).subarray(0, Number(tensorDataOffset)));
	return out;
}

async function main(): Promise<number> {
	if (!existsSync(CHROMIUM)) {
		console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
		return 1;
	}
	const plain = await buildTinyModel({ seed: 16 });
	const split = await buildTinyModel({ seed: 17, splitUtf8: true });
	const headerOnly = await headerOnlyCopy(plain.path);
	const files = await serveGguf({
		'plain.gguf': plain.path,
		'split.gguf': split.path,
		'header-only.gguf': headerOnly
	});
	// No --enable-unsafe-webgpu: this is the browser the CPU engine is for.
	const { page, close } = await openSmokePage({
		module: PAGE,
		exports: ['runCpuSmoke', 'reproduceHazard'],
		webgpu: false,
		timeoutMs: TIMEOUT_MS,
		prefix: 'cpu-smoke-',
		onPageError: (err) => console.error(`page error: ${err.message}`)
	}).catch(async (e) => {
		await files.close();
		throw e;
	});
	try {
		const urls = {
			plain: files.url('plain.gguf'),
			split: files.url('split.gguf'),
			headerOnly: files.url('header-only.gguf')
		};
		const started = Date.now();
		// A string, not a function: tsx's __name helpers do not exist in the page.
		const out = (await page.evaluate(`runCpuSmoke(${JSON.stringify(urls)})`)) as Out;
		const wallMs = Date.now() - started;
		console.log(JSON.stringify(out, null, '\t'));
		if (process.argv.includes('--hazard')) {
			const hazard = await page.evaluate(`reproduceHazard(${JSON.stringify(urls.split)})`);
			console.log(
				`\nwllama non-streamed completion on the split model:\n${JSON.stringify(hazard)}`
			);
		}
		const failures = check(
			out,
			split.splitPairs.map((p) => p.text)
		);
		for (const f of failures) console.error(`FAILED: ${f}`);
		console.log(
			`\ntiny model ${(plain.bytes / 2 ** 20).toFixed(1)} MB: load ${Math.round(out.load_ms)} ms, ` +
				`decode ${out.complete.usage.decode_tps?.toFixed(1)} tok/s, prefill ${out.complete.usage.prefill_tps?.toFixed(1)} tok/s, ` +
				`threads ${out.stats?.threads}; whole smoke ${wallMs} ms`
		);
		if (failures.length === 0) console.log('CPU engine smoke test passed.');
		return failures.length === 0 ? 0 : 1;
	} finally {
		await close();
		await files.close();
	}
}

process.exit(await main());
