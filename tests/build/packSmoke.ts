/**
 * The researcher's path as the README gives it, from the package a user installs: packs this
 * clone (npm pack), installs the tarball into an empty prefix outside the clone (npm i -g --prefix),
 * and from another folder runs the README's CLI example against the test server on 127.0.0.1
 * (adapted: the mock server's model, a shipped template, the offline demo dataset), then
 * `summarize`. A preload refuses and records any connection to a host other than 127.0.0.1, so a
 * template or dataset the package does not carry fails the step instead of reaching the network.
 *   npx tsx tests/build/packSmoke.ts
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startMockOpenAI } from '../helpers/mockOpenAI.ts';
import { namedScript } from '../helpers/mockScripts.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TIMEOUT_MS = 120_000;
const run = promisify(execFile);

/** Loaded into every CLI process: a lookup or a fetch of any host but loopback is refused and logged. */
const LOOPBACK_ONLY = `
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
const log = (what) => appendFileSync(process.env.UTP_SMOKE_OUTSIDE, what + '\\n');
const loopback = (host) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
const lookup = dns.lookup;
dns.lookup = (host, ...rest) => {
	if (!loopback(host)) log('lookup ' + host);
	const cb = rest[rest.length - 1];
	if (!loopback(host)) return cb(Object.assign(new Error('blocked by the smoke test: ' + host), { code: 'ENOTFOUND' }));
	return lookup(host, ...rest);
};
const fetch0 = globalThis.fetch;
globalThis.fetch = (input, init) => {
	const url = new URL(input instanceof Request ? input.url : String(input));
	if (!loopback(url.hostname)) {
		log('fetch ' + url.href);
		return Promise.reject(new TypeError('fetch failed: blocked by the smoke test (' + url.host + ')'));
	}
	return fetch0(input, init);
};
`;

function fail(msg: string): never {
	console.error(`pack smoke: ${msg}`);
	process.exit(1);
}

async function main(): Promise<void> {
	const tmp = mkdtempSync(join(tmpdir(), 'utp-pack-'));
	const prefix = join(tmp, 'prefix');
	const work = join(tmp, 'work');
	mkdirSync(prefix);
	mkdirSync(work);
	const outside = join(tmp, 'outside.log');
	const preload = join(tmp, 'loopback-only.mjs');
	writeFileSync(preload, LOOPBACK_ONLY);
	const server = await startMockOpenAI({ port: 0, script: namedScript('probe') });
	try {
		const t0 = Date.now();
		const packed = await run('npm', ['pack', '--pack-destination', tmp, '--silent'], {
			cwd: REPO,
			timeout: TIMEOUT_MS
		});
		const tarball = join(tmp, packed.stdout.trim().split('\n').pop() ?? '');
		if (!existsSync(tarball)) fail(`npm pack wrote no tarball (${packed.stdout})`);
		// The package has no runtime dependencies: the install reads only the tarball.
		await run(
			'npm',
			['i', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball],
			{ cwd: work, timeout: TIMEOUT_MS }
		);
		const bin = join(prefix, 'bin', 'user-turn-probe');
		if (!existsSync(bin)) fail(`npm i -g installed no ${bin}`);
		const env = {
			...process.env,
			NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`,
			UTP_SMOKE_OUTSIDE: outside,
			XDG_CACHE_HOME: join(tmp, 'cache'),
			HF_TOKEN: '',
			USER_TURN_PROBE_API_KEY: ''
		};
		const cli = (args: string[]) =>
			run(bin, args, { cwd: work, env, timeout: TIMEOUT_MS }).catch((e: unknown) => {
				const err = e as { stderr?: string; stdout?: string; message: string };
				fail(`user-turn-probe ${args[0]} failed: ${err.message}\n${err.stdout ?? ''}`);
			});
		// The README's example, with the test server's model, a template the package ships and the
		// offline demo dataset in place of gsm8k (the Hub is not reachable here).
		const ran = await cli([
			'run',
			'--base-url',
			server.url,
			'--model',
			'mock-model',
			'--template',
			'Qwen/Qwen2.5-0.5B-Instruct',
			'--judge-model',
			'mock-model',
			'--dataset',
			'demo',
			'--limit',
			'20',
			'--out',
			'runs/first.jsonl'
		]);
		const summary = await cli(['summarize', 'runs/first.jsonl']);
		const seconds = ((Date.now() - t0) / 1000).toFixed(1);
		const failures: string[] = [];
		const expect = (ok: unknown, what: string) => ok || failures.push(what);
		const blocked = existsSync(outside) ? readFileSync(outside, 'utf8').trim() : '';
		expect(blocked === '', `every request stays on 127.0.0.1 (tried: ${blocked})`);
		expect(
			/chat template: .*npm @lenml\/tokenizer-qwen2_5/.test(ran.stderr),
			`the template is the one the package carries (${ran.stderr.match(/chat template:.*/)?.[0]})`
		);
		const manifest = JSON.parse(readFileSync(join(work, 'runs/first.manifest.json'), 'utf8')) as {
			config?: { generator?: { template_repo?: string } };
		};
		expect(
			manifest.config?.generator?.template_repo === 'Qwen/Qwen2.5-0.5B-Instruct',
			'the manifest names the template'
		);
		const records = readFileSync(join(work, 'runs/first.jsonl'), 'utf8').trim().split('\n');
		expect(records.length === 40, `20 items × 2 temperatures = 40 records (${records.length})`);
		expect(
			/genuine follow-up/.test(summary.stdout) && /accuracy/.test(summary.stdout),
			`summarize prints the table:\n${summary.stdout}`
		);
		expect(
			server.requests.some((r) => r.path.endsWith('/chat/completions')),
			'the judge was asked on the test server'
		);
		if (failures.length > 0) fail(failures.join('\n'));
		console.log(
			`pack smoke: packed, installed into an empty prefix and ran the README example from outside the clone in ${seconds} s (${records.length} records, ${server.requests.length} requests, all to 127.0.0.1)`
		);
	} finally {
		await server.close();
		rmSync(tmp, { recursive: true, force: true });
	}
}

await main();
