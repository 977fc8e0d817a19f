/**
 * One run file, two shells, the same numbers: the CLI writes a run (records, answers, manifest)
 * against a scripted server; `summarize --json` reads it, and the app imports the same files into
 * IndexedDB and opens its results view state. Every number of the results table must agree, with
 * the default exclusions and with both toggles on. The run holds what used to split them: answers
 * cut at the token limit, answers cut while still reasoning, and (rules only) undecided turns.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { filesToBundle, parseAnswersJsonl } from '../../../src/lib/probe/exchange.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { resultsSource } from '../../../src/lib/app/resultsSource.ts';
import type { ResultsTable } from '../../../src/lib/results/resultsTable.ts';
import type { RunSummary } from '../../../src/lib/results/study.ts';
import { NO_RATE_REASON, tableSentences } from '../../../src/lib/results/plainWords.ts';
import { RecordsCache, ResultsState } from '../../../src/lib/state/results.svelte.ts';
import { RunsState } from '../../../src/lib/state/runs.svelte.ts';
import { StudyState } from '../../../src/lib/state/study.svelte.ts';
import { fetchShared } from '../../../src/lib/app/openRun.ts';
import { storeStudy } from '../../../src/lib/results/storeStudy.ts';
import type { Study } from '../../../src/lib/results/study.ts';
import { readJsonl } from '../../helpers/fixtures.ts';
import { fnv, type ScriptFn } from '../../helpers/script.ts';
import { testDB } from '../db/helpers.ts';
import { runMain, startCli, until, type Cli } from './harness.ts';
import { rated } from '../../helpers/rate.ts';

const ROWS = 6;
const QUESTIONS = readJsonl<{ question: string; answer: string }>('gsm8k/test.jsonl').slice(
	0,
	ROWS
);
const LONG = 'step '.repeat(40);

/**
 * Items 0–2 answer in full, 3 runs past the answer limit mid-solution, 4–5 are cut while still
 * reasoning (an open think block, nothing visible). User turns: a question about the answer, a new
 * task, or a loop, by seed; the judge calls the new task a non-genuine restatement.
 */
const script: ScriptFn = (req) => {
	if (req.kind === 'chat') {
		const turn = req.prompt.split('<generated_user_turn>').at(-1) ?? '';
		if (turn.includes('haiku'))
			return '{"label": "prompt_restatement", "verdict": "nongenuine", "rationale": "new task"}';
		return '{"label": "genuine_followup", "verdict": "genuine", "rationale": "asks about the answer"}';
	}
	if (req.prompt.endsWith('<|im_start|>assistant\n')) {
		const item = QUESTIONS.findIndex((q) => req.prompt.includes(q.question));
		if (item === 3) return `Let me work it out: ${LONG} The answer is 18.<|im_end|>`;
		if (item >= 4) return `<think>${LONG}</think>The answer is 18.<|im_end|>`;
		return 'Adding gives the total. The answer is 18.<|im_end|>';
	}
	const kind = fnv(`${req.prompt}|${req.seed}`) % 3;
	if (kind === 0) return 'Why did you add them?<|im_end|>';
	if (kind === 1) return 'Write a haiku about the ocean.<|im_end|>';
	return `${'18 '.repeat(8)}<|im_end|>`;
};

let cli: Cli;
beforeAll(async () => {
	cli = await startCli(ROWS, script);
});
afterAll(() => cli.close());

async function runCli(mode: 'rules' | 'hybrid'): Promise<string> {
	const out = join(cli.dir, `${mode}.jsonl`);
	const judge = mode === 'rules' ? 'gen' : 'judge';
	const r = await runMain(
		cli.args(out, [
			...['--judge-mode', mode, '--judge-model', judge, '--samples', '2'],
			...['--answer-max-tokens', '20']
		])
	);
	expect(r.code, r.stderr).toBe(0);
	return out;
}

async function summarizeJson(file: string, flags: string[] = []): Promise<ResultsTable> {
	return (await summarizeRun(file, flags)).table;
}

/** `summarize --json` of one run: its results table, and apart from it each condition's effect. */
async function summarizeRun(file: string, flags: string[] = []) {
	const r = await runMain(['summarize', '--json', ...flags, file]);
	expect(r.code, r.stderr).toBe(0);
	const json = JSON.parse(r.stdout) as RunSummary;
	const effects = json.conditions.flatMap((c) => (c.effect ? [c.effect] : []));
	const conditions = json.conditions.map(({ effect: _e, ...c }) => c);
	return { table: { ...json, conditions } as ResultsTable, effects };
}

/** The results view's paired effects, once its bootstraps are done. */
async function appEffects(app: ResultsState): Promise<unknown> {
	await until(() => app.paired !== null, 30_000, 'the paired effects');
	return JSON.parse(JSON.stringify(app.paired)) as unknown;
}

/** Import's way in: records and manifest, and the answers file when there is one beside them. */
async function importInto(store: DexieRunStore, file: string): Promise<string> {
	const stem = file.replace(/\.jsonl$/, '');
	const bundle = filesToBundle(
		readFileSync(file, 'utf8'),
		readFileSync(`${stem}.manifest.json`, 'utf8')
	);
	if (existsSync(`${stem}.answers.jsonl`))
		bundle.answers = parseAnswersJsonl(readFileSync(`${stem}.answers.jsonl`, 'utf8')).answers;
	return store.importRun(bundle);
}

/** The app's way in: Import with the run's files, then the results view's state. */
async function openInApp(file: string): Promise<ResultsState> {
	const { db } = testDB(`one-count-${file}`);
	const store = new DexieRunStore(db);
	const runId = await importInto(store, file);
	const state = new ResultsState(resultsSource(store), {
		cache: new RecordsCache(),
		later: (work) => work()
	});
	await state.load(runId);
	expect(state.status).toBe('ready');
	return state;
}

/** As JSON carries it (NaN → null), the form a table over many runs is built from. */
const asJson = (t: object) => JSON.parse(JSON.stringify(t)) as unknown;

describe.each(['rules', 'hybrid'] as const)(
	'summarize --json and the results view (%s)',
	(mode) => {
		let file: string;
		let app: ResultsState;
		beforeAll(async () => {
			file = await runCli(mode);
			app = await openInApp(file);
		}, 60_000);

		it('give identical numbers with the default exclusions', async () => {
			const { table: cli, effects } = await summarizeRun(file);
			expect(asJson(app.table)).toEqual(cli);
			// The paired effects with their exact and Holm-adjusted p-values, one per perturbed condition.
			expect(effects).toHaveLength(2);
			expect(await appEffects(app)).toEqual(effects);
			// Not vacuous: the run has cut answers, answers cut while reasoning and pending nothing.
			expect([cli.cut_answers, cli.cut_reasoning_items]).toEqual([3, 2]);
			// Items without reference turns: no share, in either shell.
			expect(cli).not.toHaveProperty('reference');
			expect(cli.overall.pending).toBe(0);
			// Accuracy: the three full answers only (the cut ones are out); follow-ups without items 4–5.
			expect(cli.overall.accuracy.n).toBe(3);
			expect(cli.overall.cut_reasoning).toBeGreaterThan(0);
			const records = readFileSync(file, 'utf8')
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line) as ProbeRecord);
			expect(cli.overall.n).toBe(records.length);
			if (mode === 'rules') {
				// A new task is no rule's to decide: undecided, counted, out of the rate; never genuine.
				expect(cli.overall.undecided).toBeGreaterThan(0);
				// …and with turns undecided, no rate at all: the rules never say genuine.
				expect(cli.overall.followup).toBeNull();
				expect(records.some((r) => r.user_turn.includes('haiku') && r.label === 'undecided')).toBe(
					true
				);
			} else {
				expect(cli.overall.undecided).toBe(0);
				expect(rated(cli.overall.followup).k).toBeGreaterThan(0);
			}
		});

		it('give identical numbers when both toggles count what the defaults leave out', async () => {
			const flags = ['--include-cut-answers', '--include-cut-reasoning'];
			const { table: cli, effects } = await summarizeRun(file, flags);
			app.setIncludeCutAnswers(true);
			app.setIncludeCutReasoning(true);
			try {
				expect(asJson(app.table)).toEqual(cli);
				expect(await appEffects(app)).toEqual(effects);
				expect(cli.overall.accuracy.n).toBe(ROWS);
				expect(cli.overall.cut_reasoning).toBe(0);
			} finally {
				app.setIncludeCutAnswers(false);
				app.setIncludeCutReasoning(false);
			}
		});
	}
);

/** The run's records and manifest copied into `bare/`, without its answers file. */
function withoutAnswers(file: string): string {
	const dir = join(cli.dir, 'bare');
	mkdirSync(dir, { recursive: true });
	const bare = join(dir, basename(file));
	copyFileSync(file, bare);
	copyFileSync(
		file.replace(/\.jsonl$/, '.manifest.json'),
		bare.replace(/\.jsonl$/, '.manifest.json')
	);
	return bare;
}

/**
 * Issue 35: a run imported as records + manifest without its answers file counted every cut answer
 * in the app (the answers table was its only source of cuts) and left them out in `summarize`
 * (which read them from the records). The cut travels on each record's facts now.
 */
describe('records + manifest without the answers file', () => {
	const full: Record<'rules' | 'hybrid', string> = { rules: '', hybrid: '' };
	const bare: Record<'rules' | 'hybrid', string> = { rules: '', hybrid: '' };
	beforeAll(async () => {
		for (const mode of ['rules', 'hybrid'] as const) {
			full[mode] = await runCli(mode);
			bare[mode] = withoutAnswers(full[mode]);
		}
	}, 120_000);

	it.each(['rules', 'hybrid'] as const)(
		'the results view and summarize --json count the same, with or without it (%s)',
		async (mode) => {
			expect(existsSync(bare[mode].replace(/\.jsonl$/, '.answers.jsonl'))).toBe(false);
			const { table: withFile, effects: withFileEffects } = await summarizeRun(full[mode]);
			const { table: cli, effects } = await summarizeRun(bare[mode]);
			const app = await openInApp(bare[mode]);
			expect(asJson(app.table)).toEqual(cli);
			expect(await appEffects(app)).toEqual(effects);
			// Same n, rate and interval as the run read with its answers file.
			expect(cli).toEqual(withFile);
			expect(effects).toEqual(withFileEffects);
			expect([cli.cut_answers, cli.cut_reasoning_items]).toEqual([3, 2]);
			expect(cli.overall.accuracy.n).toBe(3);
			expect(cli.overall.cut_reasoning).toBeGreaterThan(0);
			if (mode === 'hybrid') {
				const rate = rated(cli.overall.followup);
				expect(rated(app.table.overall.followup)).toEqual(rate);
				expect(rate.n).toBe(cli.overall.n - cli.overall.cut_reasoning);
			}
			// The toggles count the cut answers back in, as summarize's flags do.
			const flags = ['--include-cut-answers', '--include-cut-reasoning'];
			const { table: all } = await summarizeRun(bare[mode], flags);
			app.setIncludeCutAnswers(true);
			app.setIncludeCutReasoning(true);
			expect(asJson(app.table)).toEqual(all);
			expect(all.overall.accuracy.n).toBe(ROWS);
		}
	);

	it('the runs list, the accuracy chart’s other runs and the study count the same', async () => {
		const { db } = testDB('one-count-bare-study');
		const store = new DexieRunStore(db);
		const ids = [await importInto(store, bare.hybrid), await importInto(store, bare.rules)];
		// The study view over the stored runs, and summarize over their files.
		const r = await runMain(['summarize', '--json', bare.hybrid, bare.rules]);
		expect(r.code, r.stderr).toBe(0);
		const cliStudy = JSON.parse(r.stdout) as Study;
		const studyState = new StudyState(store);
		await studyState.load(ids);
		expect(studyState.status).toBe('ready');
		expect(asJson(studyState.study)).toEqual(cliStudy);
		expect(cliStudy.models.map((m) => m.cut_reasoning_items)).toEqual([2, 2]);
		// The runs list's rate is the results table's whole-run one.
		const runs = new RunsState(
			store,
			() => {},
			async () => []
		);
		await runs.load();
		const hybrid = runs.runs.find((e) => e.run_id === ids[0]);
		const { table: cli } = await summarizeRun(bare.hybrid);
		expect(hybrid?.followup).toEqual(cli.overall.followup);
		expect(hybrid?.records).toBe(cli.overall.n);
		// Another run's point on the accuracy chart is counted as its own results view counts it.
		const open = async (id: string) => {
			const s = new ResultsState(resultsSource(store), {
				cache: new RecordsCache(),
				later: (work) => work()
			});
			await s.load(id);
			await until(() => s.runPoints.length === 2, 30_000, 'the other run’s point');
			return s;
		};
		const [a, b] = [await open(ids[0]), await open(ids[1])];
		const strip = (p: { accuracy: unknown; followup: unknown }) => [p.accuracy, p.followup];
		expect(strip(a.runPoints[1])).toEqual(strip(b.runPoints[0]));
		expect(strip(b.runPoints[1])).toEqual(strip(a.runPoints[0]));
		expect(a.runPoints[0].accuracy).toEqual(cli.overall.accuracy);
		db.close();
	});
	it('the study view opened by a link to a study list counts as summarize over that list', async () => {
		// A link to a study list that names the runs' records files: the app fetches each with the
		// manifest beside it (never an answers file) and stores them, as the Open view does.
		const dir = dirname(bare.hybrid);
		const list = join(dir, 'bare.study.json');
		const runs = [basename(bare.hybrid), basename(bare.rules)];
		writeFileSync(list, JSON.stringify({ format: 'user-turn-probe-study', version: 1, runs }));
		const served: string[] = [];
		const fetchFn = async (url: string) => {
			const path = join(dir, decodeURIComponent(new URL(url).pathname.slice(1)));
			served.push(basename(path));
			return existsSync(path)
				? new Response(readFileSync(path))
				: new Response('Not Found', { status: 404, statusText: 'Not Found' });
		};
		const shared = await fetchShared('http://127.0.0.1/bare.study.json', fetchFn);
		expect(shared.kind).toBe('study');
		if (shared.kind !== 'study') return;
		expect(served.some((f) => f.endsWith('.answers.jsonl'))).toBe(false);
		const { db } = testDB('one-count-bare-link');
		const store = new DexieRunStore(db);
		const stored = await storeStudy(store, shared.bundles);
		const view = new StudyState(store);
		await view.load(stored.run_ids);
		expect(view.status).toBe('ready');
		const r = await runMain(['summarize', '--json', list]);
		expect(r.code, r.stderr).toBe(0);
		const cliStudy = JSON.parse(r.stdout) as Study;
		expect(asJson(view.study)).toEqual(cliStudy);
		// Effects with their p-values, row for row; and the cut answers left out in both.
		expect(cliStudy.rows.filter((row) => row.effect !== null).length).toBeGreaterThan(0);
		expect(cliStudy.models.map((m) => [m.cut_answers, m.cut_reasoning_items])).toEqual([
			[3, 2],
			[3, 2]
		]);
		db.close();
	});
});

describe('summarize as text and CSV', () => {
	let file: string;
	beforeAll(async () => {
		file = await runCli('rules');
	}, 60_000);

	it('prints the table with an "all" row and says what the defaults left out', async () => {
		const json = await summarizeJson(file);
		const r = await runMain(['summarize', file]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/^condition\s+records\s+accuracy/);
		expect(r.stdout).toMatch(new RegExp(`\\nall\\s+${json.overall.n}\\s`));
		expect(r.stdout).toContain(
			'3 answers cut at the answer token limit: left out of accuracy (--include-cut-answers counts them)'
		);
		expect(r.stdout).toContain('2 of them cut while still reasoning');
		expect(r.stdout).toContain(`${json.overall.undecided} turns undecided`);
		// The plain sentences the results view shows, from the same table.
		for (const line of tableSentences(json)) expect(r.stdout).toContain(`${line}\n`);
		// Rules only, with turns undecided: no rate, one sentence why, and what the rules saw.
		expect(json.overall.followup).toBeNull();
		expect(r.stdout).toMatch(/\nall\s+\d+\s.*no rate \(rules only\)/);
		expect(r.stdout).toContain(`${NO_RATE_REASON}\n`);
		expect(r.stdout).toMatch(
			/\nOver the whole run: no genuine-follow-up rate \(rules only\);.*Of \d+ labelled turns, \d+% undecided/
		);
		expect(r.stdout).not.toMatch(/\d+% genuine follow-ups/);
	});

	it('writes CSV whose last row is the whole run, with the JSON’s numbers', async () => {
		const json = await summarizeJson(file);
		const r = await runMain(['summarize', '--csv', file]);
		expect(r.code, r.stderr).toBe(0);
		const [header, ...rows] = r.stdout.trim().split('\n');
		expect(rows).toHaveLength(json.conditions.length + 1);
		const cols = header.split(',');
		const all = Object.fromEntries(cols.map((c, i) => [c, rows.at(-1)?.split(',')[i]]));
		expect(all).toMatchObject({
			temperature: 'all',
			records: String(json.overall.n),
			accuracy_n: String(json.overall.accuracy.n),
			followup: '',
			followup_n: '',
			undecided: String(json.overall.undecided)
		});
	});

	it('refuses --json with --csv, and an unknown flag, as usage errors', async () => {
		for (const argv of [
			['summarize', '--json', '--csv', file],
			['summarize', '--pretty', file]
		]) {
			const r = await runMain(argv);
			expect(r.code).toBe(2);
			expect(r.stderr).toMatch(/^usage error: /);
			expect(r.stderr).toContain('Usage: user-turn-probe summarize FILE');
			expect(r.stdout).toBe('');
		}
	});
});

describe('run --help', () => {
	it('says what --judge-mode rules can and cannot tell', async () => {
		const r = await runMain(['run', '--help']);
		expect(r.code).toBe(0);
		expect(r.stdout.replace(/\s+/g, ' ')).toContain(
			'a turn no rule applies to stays undecided (counted, but out of the follow-up rate)'
		);
	});
});
