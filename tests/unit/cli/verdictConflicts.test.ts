/**
 * The verdict is the judge's own, apart from the category (labels.ts GENUINE_CRITERIA). Through the
 * real pipeline (the CLI against a scripted server, then the app importing the same files), a judge
 * that answers three turns so:
 * - a loop it calls degenerate yet genuine: a conflict, kept as written, counted as not genuine;
 * - an unrelated new request it calls a plausible follow-up, not genuine (ungrounded);
 * - a grounded question it calls a plausible follow-up, genuine;
 * gives 1 genuine of 3 and 1 conflict, in `summarize --json`, its text and the results view.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { filesToBundle, parseAnswersJsonl } from '../../../src/lib/probe/exchange.ts';
import { JUDGE_PROMPT } from '../../../src/lib/probe/judge.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { resultsSource } from '../../../src/lib/app/resultsSource.ts';
import type { ResultsTable } from '../../../src/lib/results/resultsTable.ts';
import { RecordsCache, ResultsState } from '../../../src/lib/state/results.svelte.ts';
import { readJsonl } from '../../helpers/fixtures.ts';
import type { ScriptFn } from '../../helpers/script.ts';
import { testDB } from '../db/helpers.ts';
import { runMain, startCli, type Cli } from './harness.ts';
import { rated } from '../../helpers/rate.ts';

const QUESTIONS = readJsonl<{ question: string }>('gsm8k/test.jsonl').slice(0, 3);

/** The user turn each item's probe writes, by the item's place in the file. */
const TURNS = [
	'18? 18? 18? 18? 18? 18? 18? 18? 18? 18?',
	'Can you write me a short poem about autumn leaves?',
	'Why did you add the two amounts before dividing?'
];

/** The judge answers each turn as a real judge can; the first one contradicts itself. */
const JUDGE: Record<string, object> = {
	[TURNS[0]]: { label: 'degenerate', verdict: 'genuine', rationale: 'a loop, yet it reacts' },
	[TURNS[1]]: { label: 'genuine_followup', verdict: 'not_genuine', rationale: 'a new task' },
	[TURNS[2]]: { label: 'genuine_followup', verdict: 'genuine', rationale: 'asks about a step' }
};

const script: ScriptFn = (req) => {
	if (req.kind === 'chat') {
		// The last block: the system prompt names the tags too.
		const turn = req.prompt.split('<generated_user_turn>').at(-1) ?? '';
		const hit = Object.keys(JUDGE).find((t) => turn.includes(t));
		return JSON.stringify(hit ? JUDGE[hit] : { label: 'judge_error' });
	}
	if (req.prompt.endsWith('<|im_start|>assistant\n')) return 'The answer is 18.<|im_end|>';
	const item = QUESTIONS.findIndex((q) => req.prompt.includes(q.question));
	return `${TURNS[item]}<|im_end|>`;
};

let cli: Cli;
let file: string;
beforeAll(async () => {
	cli = await startCli(3, script);
	file = join(cli.dir, 'verdicts.jsonl');
	const r = await runMain(
		cli.args(file, ['--temperatures', '0', '--perturbations', 'none', '--judge-mode', 'llm'])
	);
	expect(r.code, r.stderr).toBe(0);
}, 60_000);
afterAll(() => cli.close());

function records(): ProbeRecord[] {
	return readFileSync(file, 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as ProbeRecord);
}

async function openInApp(): Promise<ResultsState> {
	const stem = file.replace(/\.jsonl$/, '');
	const bundle = filesToBundle(
		readFileSync(file, 'utf8'),
		readFileSync(`${stem}.manifest.json`, 'utf8')
	);
	bundle.answers = parseAnswersJsonl(readFileSync(`${stem}.answers.jsonl`, 'utf8')).answers;
	const { db } = testDB('verdict-conflicts');
	const store = new DexieRunStore(db);
	const state = new ResultsState(resultsSource(store), {
		cache: new RecordsCache(),
		later: () => undefined
	});
	await state.load(await store.importRun(bundle));
	expect(state.status).toBe('ready');
	return state;
}

describe('a verdict of its own', () => {
	it('stores the judge’s category and verdict as written, under the new prompt id', () => {
		const byTurn = new Map(records().map((r) => [r.user_turn, r]));
		expect(TURNS.map((t) => [byTurn.get(t)?.label, byTurn.get(t)?.verdict])).toEqual([
			['degenerate', 'genuine'],
			['genuine_followup', 'not_genuine'],
			['genuine_followup', 'genuine']
		]);
		for (const r of records()) expect(r.judge_prompt_id).toBe(JUDGE_PROMPT.id);
	});

	it('summarize --json counts 1 genuine of 3 and 1 conflict, and the app the same', async () => {
		const r = await runMain(['summarize', '--json', file]);
		expect(r.code, r.stderr).toBe(0);
		const json = JSON.parse(r.stdout) as ResultsTable;
		expect([rated(json.overall.followup).k, rated(json.overall.followup).n]).toEqual([1, 3]);
		expect(json.overall.verdict_conflicts).toBe(1);
		expect(json.conditions.map((c) => c.verdict_conflicts)).toEqual([1]);

		const app = await openInApp();
		expect([rated(app.table.overall.followup).k, rated(app.table.overall.followup).n]).toEqual([
			1, 3
		]);
		expect(app.table.overall.verdict_conflicts).toBe(1);
		// A run with only 'none' has no paired effect (null); the table is the app's, to the field.
		const withEffect = json.conditions as (ResultsTable['conditions'][number] & {
			effect?: unknown;
		})[];
		expect(withEffect.map((c) => c.effect)).toEqual([null]);
		const conditions = withEffect.map(({ effect: _e, ...c }) => c);
		expect(JSON.parse(JSON.stringify(app.table))).toEqual({ ...json, conditions });
	});

	it('summarize prints the conflict in its own column and says how it is counted', async () => {
		const r = await runMain(['summarize', file]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/judge errors\s+verdict conflicts/);
		expect(r.stdout).toMatch(/\nall\s+3\s.*33\.3%.*\s0\s+1\s+0\s+0\n/);
		expect(r.stdout).toContain(
			'1 verdict conflict: the judge gave a failure category and the verdict genuine; kept as written, counted as not genuine'
		);
		const csv = await runMain(['summarize', '--csv', file]);
		const [header, , all] = csv.stdout.trim().split('\n');
		const col = header.split(',').indexOf('verdict_conflicts');
		expect(col).toBeGreaterThan(0);
		expect(all.split(',')[col]).toBe('1');
	});
});
