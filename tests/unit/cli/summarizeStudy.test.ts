/**
 * Three run files (one per generator model, the same items, seeds, conditions and judge), two
 * ways in, one study: `summarize a b c --json` reads the CLI's files, and the app's way (Import's
 * parser, then study()) reads the same files. Every number must agree; text and CSV carry them.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesToBundle, parseAnswersJsonl } from '../../../src/lib/probe/exchange.ts';
import { bundleToRunFile } from '../../../src/lib/probe/runFile.ts';
import { answerFacts } from '../../../src/lib/results/resultsTable.ts';
import { study, studyRunOf, type Study } from '../../../src/lib/results/study.ts';
import { fnv, type ScriptFn } from '../../helpers/script.ts';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { StudyState } from '../../../src/lib/state/study.svelte.ts';
import { testDB } from '../db/helpers.ts';
import { runMain, startCli, type Cli } from './harness.ts';

const MODELS = ['small', 'medium', 'large'];

/** Bigger models ask about the answer more often; append moves only the large one. */
const script: ScriptFn = (req) => {
	if (req.kind === 'chat') {
		const genuine = req.prompt.includes('Why');
		return JSON.stringify({
			label: genuine ? 'genuine_followup' : 'prompt_restatement',
			verdict: genuine ? 'genuine' : 'nongenuine',
			rationale: 'scripted'
		});
	}
	if (req.prompt.endsWith('<|im_start|>assistant\n')) {
		const right = req.model === 'small' ? fnv(req.prompt) % 2 === 0 : true;
		return `The answer is ${right ? 18 : 17}.<|im_end|>`;
	}
	const odds = { small: 5, medium: 3, large: 2 }[req.model] ?? 5;
	const asks = fnv(`${req.prompt}|${req.seed}`) % odds === 0;
	return asks ? 'Why did you add them?<|im_end|>' : 'Solve: what is 2 + 2?<|im_end|>';
};

let cli: Cli;
const files: string[] = [];
beforeAll(async () => {
	cli = await startCli(6, script);
	cli.server.setModels([...MODELS, 'judge']);
	for (const model of MODELS) {
		const out = join(cli.dir, `${model}.jsonl`);
		const r = await runMain(cli.args(out, ['--model', model, '--samples', '3']));
		expect(r.code, r.stderr).toBe(0);
		files.push(out);
	}
}, 120_000);
afterAll(() => cli.close());

/** The app's way in: Import's parser on each run's three files, then the study computation. */
function studyInApp(paths: readonly string[]): Study {
	const runs = paths.map((file) => {
		const stem = file.replace(/\.jsonl$/, '');
		const bundle = filesToBundle(
			readFileSync(file, 'utf8'),
			readFileSync(`${stem}.manifest.json`, 'utf8')
		);
		const { answers } = parseAnswersJsonl(readFileSync(`${stem}.answers.jsonl`, 'utf8'));
		return studyRunOf(bundle.manifest, bundle.records, answers.map(answerFacts));
	});
	return study(runs);
}

const asJson = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

describe('summarize over three run files', () => {
	it('prints the study computation’s numbers, row for row', async () => {
		const r = await runMain(['summarize', '--json', ...files]);
		expect(r.code, r.stderr).toBe(0);
		const cli = JSON.parse(r.stdout) as Study;
		expect(cli).toEqual(asJson(studyInApp(files)));
		// Not vacuous: three models × 2 temperatures × 2 perturbations, effects for truncate.
		expect(cli.models.map((m) => m.name)).toEqual(MODELS);
		expect(cli.rows).toHaveLength(12);
		const truncated = cli.rows.filter((row) => row.perturbation === 'truncate');
		expect(truncated.every((row) => row.effect !== null && row.effect.n_pairs > 0)).toBe(true);
		expect(cli.rows.filter((row) => row.perturbation === 'none').every((x) => !x.effect)).toBe(
			true
		);
		// The models differ as scripted: small is the least accurate.
		const accuracy = cli.models.map((m) => m.overall.accuracy.p);
		expect(accuracy[0]).toBeLessThan(accuracy[2]);
	});

	it('equals the study view’s state over the same files imported into the browser store', async () => {
		const { db } = testDB('study-three');
		const store = new DexieRunStore(db);
		const ids: string[] = [];
		for (const file of files) {
			const stem = file.replace(/\.jsonl$/, '');
			const bundle = filesToBundle(
				readFileSync(file, 'utf8'),
				readFileSync(`${stem}.manifest.json`, 'utf8')
			);
			bundle.answers = parseAnswersJsonl(readFileSync(`${stem}.answers.jsonl`, 'utf8')).answers;
			ids.push(await store.importRun(bundle));
		}
		const view = new StudyState(store);
		await view.load(ids);
		expect(view.status).toBe('ready');
		const r = await runMain(['summarize', '--json', ...files]);
		expect(asJson(view.study)).toEqual(JSON.parse(r.stdout));
		db.close();
	});

	it('gives each run’s own numbers: a study row is that run’s summarize row', async () => {
		const one = await runMain(['summarize', '--json', files[1]]);
		const single = JSON.parse(one.stdout) as { conditions: unknown[]; overall: unknown };
		const r = await runMain(['summarize', '--json', ...files]);
		const s = JSON.parse(r.stdout) as Study;
		const rows = s.rows.filter((row) => row.model === 'medium');
		const own = single.conditions.map((c, i) => {
			const { model, run_id, label_shares, effect } = rows[i];
			return { ...(c as object), model, run_id, label_shares, effect };
		});
		expect(rows).toEqual(own);
		expect(s.models[1].overall).toEqual(single.overall);
	});

	it('prints a text table with one row per model × condition and the caveat', async () => {
		const r = await runMain(['summarize', ...files]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/^model\s+condition\s+records\s+accuracy/);
		for (const m of MODELS) expect(r.stdout).toMatch(new RegExp(`\\n${m}\\s+T=1 truncate\\s`));
		expect(r.stdout).toContain('Label shares');
		expect(r.stdout).toContain('cannot tell them apart');
	});

	it('writes CSV with a row per model × condition and one "all" row per model', async () => {
		const json = JSON.parse((await runMain(['summarize', '--json', ...files])).stdout) as Study;
		const r = await runMain(['summarize', '--csv', ...files]);
		expect(r.code, r.stderr).toBe(0);
		const [header, ...lines] = r.stdout.trim().split('\n');
		expect(lines).toHaveLength(json.rows.length + MODELS.length);
		const cols = header.split(',');
		const cell = (line: string, col: string) => line.split(',')[cols.indexOf(col)];
		const large = lines.filter((l) => l.startsWith('large,'));
		const row = json.rows.find((x) => x.model === 'large' && x.perturbation === 'truncate');
		const line = large.find((l) => cell(l, 'perturbation') === 'truncate');
		expect(line && cell(line, 'effect_pairs')).toBe(String(row?.effect?.n_pairs));
		expect(line && Number(cell(line, 'followup'))).toBeCloseTo(row?.followup?.p ?? NaN, 12);
		expect(cell(large.at(-1) ?? '', 'temperature')).toBe('all');
	});

	it('names a run without a manifest by its file, and says so', async () => {
		const bare = join(cli.dir, 'bare-records.jsonl');
		copyFileSync(files[0], bare);
		const r = await runMain(['summarize', '--json', files[1], bare]);
		expect(r.code, r.stderr).toBe(0);
		expect((JSON.parse(r.stdout) as Study).models.map((m) => m.name)).toEqual([
			'medium',
			'bare-records'
		]);
		expect(r.stderr).toContain('bare-records.jsonl: no manifest beside it');
	});

	it('reads whole-run files (what Share makes) with the same numbers', async () => {
		const shared = files.map((file) => {
			const stem = file.replace(/\.jsonl$/, '');
			const bundle = filesToBundle(
				readFileSync(file, 'utf8'),
				readFileSync(`${stem}.manifest.json`, 'utf8')
			);
			bundle.answers = parseAnswersJsonl(readFileSync(`${stem}.answers.jsonl`, 'utf8')).answers;
			const out = join(cli.dir, 'shared', `${bundle.manifest.config.generator.id}.run.jsonl`);
			mkdirSync(dirname(out), { recursive: true });
			writeFileSync(out, bundleToRunFile(bundle));
			return out;
		});
		const r = await runMain(['summarize', '--json', ...shared]);
		expect(r.code, r.stderr).toBe(0);
		expect(JSON.parse(r.stdout)).toEqual(asJson(studyInApp(files)));
	});

	it('fails on a missing file, naming it', async () => {
		const r = await runMain(['summarize', '--json', files[0], join(cli.dir, 'absent.jsonl')]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain('absent.jsonl');
	});
});
