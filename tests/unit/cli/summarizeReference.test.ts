/**
 * The reference share (this app's measure) from one run file in both shells: the CLI runs
 * conversations whose items carry their own assistant reply and the human's next turn, against a
 * scripted server whose judge picks a side by the turn's text; `summarize` (JSON, text, CSV) and
 * the app's results view state read the same files and must give the same share, ties apart.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { filesToBundle, parseAnswersJsonl } from '../../../src/lib/probe/exchange.ts';
import { REFERENCE_PROMPT } from '../../../src/lib/probe/referenceJudge.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { resultsSource } from '../../../src/lib/app/resultsSource.ts';
import type { ResultsTable } from '../../../src/lib/results/resultsTable.ts';
import type { RunSummary, Study } from '../../../src/lib/results/study.ts';
import { RecordsCache, ResultsState } from '../../../src/lib/state/results.svelte.ts';
import { readJsonl } from '../../helpers/fixtures.ts';
import { fnv, type ScriptFn } from '../../helpers/script.ts';
import { testDB } from '../db/helpers.ts';
import { runMain, startCli, type Cli } from './harness.ts';

type Conv = { message_tree_id: string; messages: { role: string; content: string }[] };
const CONVERSATIONS = readJsonl<Conv>('oasst_conversations/conversations.jsonl')
	.filter((c) => c.messages.at(-1)?.role === 'user')
	.slice(0, 5);

/**
 * User turns vary by seed; the judge labels every turn genuine, and compares by a hash of the
 * request: A, B, SAME, or (one in five) a reply naming neither turn.
 */
const script: ScriptFn = (req) => {
	if (req.kind === 'chat') {
		if (!req.prompt.includes(REFERENCE_PROMPT.system))
			return '{"label": "genuine_followup", "verdict": "genuine", "rationale": "asks"}';
		const pick = ['A', 'B', 'SAME', 'B', 'both'][fnv(req.prompt) % 5];
		return pick === 'both' ? 'Both turns are fine.' : JSON.stringify({ more_grounded: pick });
	}
	if (req.prompt.endsWith('<|im_start|>assistant\n')) return 'never asked<|im_end|>';
	return `Could you say more about point ${fnv(`${req.prompt}|${req.seed}`) % 7}?<|im_end|>`;
};

let cli: Cli;
let file: string;
let app: ResultsState;

async function summarize(flags: string[]): Promise<string> {
	const r = await runMain(['summarize', ...flags, file]);
	expect(r.code, r.stderr).toBe(0);
	return r.stdout;
}

beforeAll(async () => {
	cli = await startCli(1, script);
	const dataset = join(cli.dir, 'threads.jsonl');
	// The conversation ends on the assistant's reply; the person's next turn says it is the reference.
	const threads = CONVERSATIONS.map((c) => ({
		id: c.message_tree_id,
		messages: c.messages.slice(0, -1),
		reference_turn: c.messages.at(-1)?.content
	}));
	writeFileSync(dataset, threads.map((c) => JSON.stringify(c)).join('\n') + '\n');
	file = join(cli.dir, 'threads-run.jsonl');
	const r = await runMain(cli.args(file, ['--dataset', dataset, '--samples', '2']));
	expect(r.code, r.stderr).toBe(0);
	const stem = file.replace(/\.jsonl$/, '');
	const bundle = filesToBundle(
		readFileSync(file, 'utf8'),
		readFileSync(`${stem}.manifest.json`, 'utf8')
	);
	bundle.answers = parseAnswersJsonl(readFileSync(`${stem}.answers.jsonl`, 'utf8')).answers;
	const { db } = testDB('reference-share');
	const store = new DexieRunStore(db);
	const runId = await store.importRun(bundle);
	app = new ResultsState(resultsSource(store), {
		cache: new RecordsCache(),
		later: () => undefined
	});
	await app.load(runId);
	expect(app.status).toBe('ready');
}, 60_000);
afterAll(() => cli.close());

describe('the reference share in summarize and the results view', () => {
	it('is the same numbers in both, counted from the records', async () => {
		const json = JSON.parse(await summarize(['--json'])) as RunSummary;
		// The table's numbers; each condition's paired effect is summarizeMatchesApp.test.ts's to compare.
		const table = { ...json, conditions: json.conditions.map(({ effect: _e, ...c }) => c) };
		expect(JSON.parse(JSON.stringify(app.table))).toEqual(table);
		const records = readFileSync(file, 'utf8')
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l) as ProbeRecord);
		// The run has truncate too: those records carry no human turn (it answered the whole answer).
		const plain = records.filter((r) => r.perturbation === 'none');
		expect(plain.length).toBeLessThan(records.length);
		expect(records.filter((r) => r.perturbation !== 'none' && 'reference_turn' in r)).toEqual([]);
		const count = (g: ProbeRecord['reference_grounding']) =>
			plain.filter((r) => r.reference_grounding === g).length;
		const overall = json.reference?.overall;
		expect(json.reference?.perturbed_left_out).toBe(0);
		expect(overall).toMatchObject({
			records: plain.length,
			generated: count('generated'),
			reference: count('reference'),
			tie: count('tie'),
			uncompared: count(null)
		});
		// Not vacuous: every outcome occurs, unreadable replies included.
		expect(
			[count('generated'), count('reference'), count('tie'), count(null)].every((n) => n > 0)
		).toBe(true);
		// Ties apart: a tie is not a win.
		expect(overall?.more_grounded).toMatchObject({
			k: count('generated'),
			n: plain.length - count(null)
		});
		expect(overall?.as_grounded).toMatchObject({
			k: count('tie'),
			n: plain.length - count(null)
		});
		expect(json.reference?.measure).toMatch(/^This app's measure, not the paper's/);
		expect(
			records.every(
				(r) =>
					r.answer ===
					CONVERSATIONS.find((c) => r.question === c.messages.at(-3)?.content)?.messages.at(-2)
						?.content
			)
		).toBe(true);
	});

	it('prints the share as text and as CSV columns', async () => {
		const json = JSON.parse(await summarize(['--json'])) as ResultsTable;
		const overall = json.reference?.overall;
		const text = await summarize([]);
		expect(text).toContain("Generated user turn vs the human's real next turn");
		expect(text).toContain("This app's measure, not the paper's");
		expect(text).toMatch(
			new RegExp(`\\nall\\s+${overall?.records}\\s+\\d+\\.\\d% \\[.*\\]\\s+\\S+\\s+\\d+\\.\\d% \\[`)
		);
		const [header, ...rows] = (await summarize(['--csv'])).trim().split('\n');
		const cols = header.split(',');
		const all = Object.fromEntries(cols.map((c, i) => [c, rows.at(-1)?.split(',')[i]]));
		expect(all).toMatchObject({
			reference_records: String(overall?.records),
			more_grounded_k: String(overall?.more_grounded.k),
			more_grounded_n: String(overall?.more_grounded.n),
			as_grounded_k: String(overall?.as_grounded.k)
		});
	});

	it('gives each run of a study its share, the single run’s numbers', async () => {
		const one = JSON.parse(await summarize(['--json'])) as ResultsTable;
		// A copy of the run under another name: the same file listed twice would count once.
		const copy = join(cli.dir, 'threads-copy.jsonl');
		for (const ext of ['.jsonl', '.manifest.json', '.answers.jsonl'])
			copyFileSync(file.replace(/\.jsonl$/, ext), copy.replace(/\.jsonl$/, ext));
		const r = await runMain(['summarize', '--json', file, copy]);
		expect(r.code, r.stderr).toBe(0);
		const study = JSON.parse(r.stdout) as Study;
		expect(study.models.map((m) => m.reference)).toEqual([
			one.reference?.overall,
			one.reference?.overall
		]);
	});
});
