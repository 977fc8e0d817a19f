import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { filesToBundle, validateBundle } from '../../../src/lib/probe/exchange.ts';
import type { ProbeRecord, RunManifest } from '../../../src/lib/probe/types.ts';
import { testDB } from '../db/helpers.ts';
import { killCliWhen, startCli, runMain, type Cli } from './harness.ts';

const records = (path: string): ProbeRecord[] =>
	readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as ProbeRecord);
const manifestOf = (out: string): RunManifest =>
	JSON.parse(readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8'));

// Each test runs the CLI two to four times (≈2.3 s on a busy 2-core machine): 5 s was too tight.
describe('a changed config never mixes into an old run (CLI)', { timeout: 20_000 }, () => {
	let cli: Cli;
	beforeAll(async () => {
		cli = await startCli();
	});
	afterAll(() => cli.close());

	/** A finished 4 items × 2 × 2 run in its own file. */
	async function finished(name: string, extra: string[] = []): Promise<string> {
		const out = join(cli.dir, `${name}.jsonl`);
		const r = await runMain(cli.args(out, extra));
		expect(r.code, r.stderr).toBe(0);
		expect(records(out)).toHaveLength(16);
		return out;
	}

	it('stores the identity and its hash in the manifest, with the model as /v1/models reports it', async () => {
		cli.server.modelFields = { gen: { root: '/models/qwen-a', max_model_len: 4096 } };
		try {
			const m = manifestOf(await finished('stamped'));
			expect(m.config_hash).toMatch(/^[0-9a-f]{64}$/);
			expect(m.identity).toMatchObject({
				generator: 'gen',
				'generator.root': '/models/qwen-a',
				judge: 'judge',
				truncate_fraction: 0.5,
				seed: 0
			});
			expect(m.identity?.dataset_sha256).toMatch(/^[0-9a-f]{64}$/);
			// Not what the weights are: vLLM's context length flag, nor the request time.
			expect(Object.keys(m.identity ?? {})).not.toContain('generator.max_model_len');
		} finally {
			cli.server.modelFields = {};
		}
	});

	for (const [what, extra, field] of [
		['truncate fraction', ['--truncate-fraction', '0.3'], 'truncate_fraction'],
		['seed', ['--seed', '7', '--run-id', 'keep'], 'seed'],
		['append text', ['--append-text', 'Thoughts?'], 'append_text'],
		['judge', ['--judge-model', 'gen'], 'judge'],
		['judge mode', ['--judge-mode', 'rules'], 'judge_mode'],
		['max tokens', ['--max-tokens', '100'], 'max_tokens'],
		['task prompt', ['--task-prompt', 'paper'], 'task_template'],
		['system prompt', ['--system-prompt', 'Be brief.'], 'system_prompt']
	] as const) {
		it(`refuses a rerun with another ${what}, naming the field, and changes nothing`, async () => {
			const out = await finished(`change-${field}`, field === 'seed' ? ['--run-id', 'keep'] : []);
			const before = readFileSync(out, 'utf8');
			const manifest = readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8');
			const requests = cli.server.requests.length;
			const r = await runMain(cli.args(out, [...extra]));
			expect(r.code).toBe(2);
			// The refusal is one line, after the line saying where the template came from.
			const lines = r.stderr
				.trim()
				.split('\n')
				.filter((l) => !l.startsWith('chat template:'));
			expect(lines).toHaveLength(1);
			expect(lines[0]).toContain(field);
			expect(lines[0]).toMatch(/another --out.*--overwrite/);
			expect(readFileSync(out, 'utf8')).toBe(before);
			expect(readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8')).toBe(manifest);
			// Only what the server serves was asked for (models, context window): no generation, no judging.
			const asked = cli.server.requests.slice(requests).map((q) => q.path);
			expect(asked.every((path) => path === '/v1/models' || path === '/props')).toBe(true);
		});
	}

	it('refuses another dataset, and a dataset file whose content changed', async () => {
		const out = await finished('dataset');
		const other = join(cli.dir, 'other.jsonl');
		const rows = readFileSync(cli.dataset, 'utf8').split('\n').filter(Boolean);
		writeFileSync(other, rows.join('\n') + '\n');
		const renamed = await runMain(cli.args(out, ['--dataset', other, '--run-id', 'x']));
		expect(renamed.code).toBe(2);
		expect(renamed.stderr).toMatch(/run_id \("cli-[^"]+" → "x"\), dataset \(/);
		const backup = readFileSync(cli.dataset, 'utf8');
		try {
			const edited = JSON.parse(rows[0]) as { question: string };
			edited.question += ' Answer in euros.';
			writeFileSync(cli.dataset, [JSON.stringify(edited), ...rows.slice(1)].join('\n') + '\n');
			const r = await runMain(cli.args(out));
			expect(r.code).toBe(2);
			expect(r.stderr).toMatch(/dataset_sha256/);
		} finally {
			writeFileSync(cli.dataset, backup);
		}
	});

	it('refuses when other weights are served under the same model id (vLLM root)', async () => {
		cli.server.modelFields = { gen: { root: '/models/qwen-a' } };
		try {
			const out = await finished('weights');
			cli.server.modelFields = { gen: { root: '/models/qwen-b' } };
			const r = await runMain(cli.args(out));
			expect(r.code).toBe(2);
			expect(r.stderr).toContain('generator.root ("/models/qwen-a" → "/models/qwen-b")');
		} finally {
			cli.server.modelFields = {};
		}
	});

	it('refuses when the server stops reporting the weights, keeps them when told, then refuses others', async () => {
		cli.server.modelFields = { gen: { root: '/models/qwen-a' } };
		try {
			const out = await finished('vanish');
			// The server no longer says which weights it serves (vLLM's root gone).
			cli.server.modelFields = {};
			const more = ['--temperatures', '0,1,0.5'];
			const refused = await runMain(cli.args(out, more));
			expect(refused.code).toBe(2);
			expect(refused.stderr).toContain('generator.root ("/models/qwen-a")');
			expect(refused.stderr).toContain('--accept-unchecked-model');
			expect(records(out)).toHaveLength(16);

			const told = await runMain(cli.args(out, [...more, '--accept-unchecked-model']));
			expect(told.code, told.stderr).toBe(0);
			expect(told.stderr).toContain('without checking generator.root');
			expect(records(out)).toHaveLength(24);
			// The stored fingerprint is never dropped.
			expect(manifestOf(out).identity?.['generator.root']).toBe('/models/qwen-a');

			// Other weights later: still told apart, nothing mixed in.
			cli.server.modelFields = { gen: { root: '/models/qwen-b' } };
			const other = await runMain(
				cli.args(out, ['--temperatures', '0,1,0.5,0.7', '--accept-unchecked-model'])
			);
			expect(other.code).toBe(2);
			expect(other.stderr).toContain('generator.root ("/models/qwen-a" → "/models/qwen-b")');
			expect(records(out)).toHaveLength(24);
			expect(manifestOf(out).identity?.['generator.root']).toBe('/models/qwen-a');
		} finally {
			cli.server.modelFields = {};
		}
	});

	it('refuses when llama-server reports another model file under the same alias (meta)', async () => {
		const meta = (n: number) => ({
			judge: { owned_by: 'llamacpp', meta: { n_params: n, size: 9 } }
		});
		cli.server.modelFields = meta(494032768);
		try {
			const out = await finished('llama');
			cli.server.modelFields = meta(1543714304);
			const r = await runMain(cli.args(out));
			expect(r.code).toBe(2);
			expect(r.stderr).toContain('judge.meta');
		} finally {
			cli.server.modelFields = {};
		}
	});

	it('resumes the same command, and extends a run with more temperatures or samples', async () => {
		const out = await finished('extend');
		const again = await runMain(cli.args(out));
		expect(again.code, again.stderr).toBe(0);
		expect(records(out)).toHaveLength(16);
		const more = await runMain(cli.args(out, ['--temperatures', '0,1,0.5', '--samples', '2']));
		expect(more.code, more.stderr).toBe(0);
		// 4 items × 2 perturbations × (one greedy turn at T=0 + 2 samples at each of T=1, 0.5).
		expect(new Set(records(out).map((r) => r.key)).size).toBe(4 * 2 * (1 + 2 + 2));
	});

	it('--overwrite replaces the old run with a new one', async () => {
		const out = await finished('overwrite');
		const r = await runMain(cli.args(out, ['--truncate-fraction', '0.25', '--overwrite']));
		expect(r.code, r.stderr).toBe(0);
		const after = records(out);
		expect(after).toHaveLength(16);
		expect(manifestOf(out).identity?.truncate_fraction).toBe(0.25);
		const truncated = after.filter((x) => x.perturbation === 'truncate');
		// Every truncated answer is a quarter of the answer now, none left from the 0.5 run.
		for (const t of truncated)
			expect(t.perturbed_answer.length).toBeLessThan(t.answer.length * 0.4);
	});

	it('checks a manifest written before identities on what its config records, then stamps it', async () => {
		const out = await finished('legacy');
		const path = out.replace(/\.jsonl$/, '.manifest.json');
		const strip = () => {
			const { identity: _i, config_hash: _h, ...old } = manifestOf(out);
			writeFileSync(path, JSON.stringify(old));
		};
		strip();
		const changed = await runMain(cli.args(out, ['--truncate-fraction', '0.9']));
		expect(changed.code).toBe(2);
		expect(changed.stderr).toContain('truncate_fraction (0.5 → 0.9)');
		const same = await runMain(cli.args(out));
		expect(same.code, same.stderr).toBe(0);
		expect(same.stderr).toMatch(/predates config hashes.*dataset_sha256/);
		expect(manifestOf(out).config_hash).toMatch(/^[0-9a-f]{64}$/);
	});

	it('refuses records without a manifest beside them (their config is unknown)', async () => {
		const out = join(cli.dir, 'orphan.jsonl');
		writeFileSync(out, readFileSync(await finished('orphan-src'), 'utf8'));
		const r = await runMain(cli.args(out));
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/no .*orphan\.manifest\.json.*--overwrite/);
	});

	it('a run killed with SIGKILL is refused with another config, and resumes with its own', async () => {
		const out = join(cli.dir, 'killed.jsonl');
		cli.server.tokenDelayMs = 3;
		await killCliWhen(
			cli.args(out, ['--concurrency', '1']),
			() => existsSync(out) && readFileSync(out, 'utf8').split('\n').length > 4,
			{ pollMs: 10 }
		);
		cli.server.tokenDelayMs = 0;
		expect(manifestOf(out).status).toBe('running');
		// What a kill mid-append leaves; a refused run must not even repair it.
		appendFileSync(out, '{"run_id":"cli-0","key":"torn');
		const partial = readFileSync(out, 'utf8');
		const changed = await runMain(cli.args(out, ['--append-text', 'Well?']));
		expect(changed.code).toBe(2);
		expect(changed.stderr).toContain('append_text');
		expect(readFileSync(out, 'utf8')).toBe(partial);
		const same = await runMain(cli.args(out));
		expect(same.code, same.stderr).toBe(0);
		expect(new Set(records(out).map((r) => r.key)).size).toBe(16);
		expect(records(out)).toHaveLength(16);
	}, 60_000);

	it('the stored identity survives import into the web app and export back', async () => {
		const out = await finished('interop');
		const bundle = filesToBundle(
			readFileSync(out, 'utf8'),
			readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8')
		);
		expect(validateBundle(bundle)).toEqual([]);
		const { db } = testDB();
		try {
			const store = new DexieRunStore(db);
			await store.importRun(bundle);
			const back = await store.exportRun(bundle.manifest.run_id);
			expect(back.manifest.identity).toEqual(manifestOf(out).identity);
			expect(back.manifest.config_hash).toBe(manifestOf(out).config_hash);
		} finally {
			db.close();
		}
	});
});
