/**
 * The CLI scores IFBench's NLTK-based instructions (and IFEval's sentence counts) with NLTK's data
 * fetched from a stand-in of raw.githubusercontent.com, keeps it in the cache folder so the next
 * run needs no network, and, when the host cannot be reached, says so and goes on with those
 * instructions unscored. The data served is the committed subset of NLTK's real files, zipped as
 * upstream ships them.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerRecord, RunManifest } from '../../../src/lib/probe/types.ts';
import { upstreamFiles } from '../../helpers/nltkUpstream.ts';
import { startFakeRaw, type FakeRaw } from '../nlp/fakeRawGithub.ts';
import { runMain, startCli, type Cli } from './harness.ts';

/** The scripted model answers every question "Adding gives the total. The answer is 18." */
const ROWS = [
	{
		key: 1,
		prompt: 'Say it.',
		instruction_id_list: ['sentence:keyword'],
		kwargs: [{ word: 'answer', N: 2 }]
	},
	{ key: 2, prompt: 'Ask it.', instruction_id_list: ['ratio:sentence_type'], kwargs: [{}] },
	{
		key: 3,
		prompt: 'Two sentences.',
		instruction_id_list: ['length_constraints:number_sentences'],
		kwargs: [{ relation: 'at least', num_sentences: 2 }]
	}
];

let cli: Cli;
let raw: FakeRaw;
let dataset: string;

beforeAll(async () => {
	cli = await startCli();
	raw = await startFakeRaw(upstreamFiles());
	dataset = join(cli.dir, 'ifbench-like.jsonl');
	writeFileSync(dataset, ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n');
});

afterAll(async () => {
	await raw.close();
	await cli.close();
});

function run(out: string, cache: string, urls: { nltk: string; syllapy: string }) {
	const args = cli.args(out, [
		'--dataset',
		dataset,
		'--judge-mode',
		'rules',
		'--temperatures',
		'0',
		'--perturbations',
		'none',
		'--nltk-data-url',
		urls.nltk,
		'--syllapy-url',
		urls.syllapy
	]);
	return runMain(args, { XDG_CACHE_HOME: cache });
}

function answersOf(out: string): Map<string, AnswerRecord> {
	const file = out.replace(/\.jsonl$/, '.answers.jsonl');
	const answers = readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as AnswerRecord);
	return new Map(answers.map((a) => [a.item_id, a]));
}

const manifestOf = (out: string) =>
	JSON.parse(readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8')) as RunManifest;

/** A port nothing listens on: what a blocked or unreachable host looks like to fetch. */
async function closedPort(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}

describe('CLI scoring with NLTK data', () => {
	const cache = mkdtempSync(join(tmpdir(), 'utp-nlp-cache-'));

	it('downloads the four files once, scores every instruction, and says where the data came from', async () => {
		const out = join(cli.dir, 'first.jsonl');
		const result = await run(out, cache, { nltk: raw.nltkDataBase, syllapy: raw.syllapyBase });
		expect(result.code, result.stderr).toBe(0);
		expect(raw.requests).toHaveLength(4);
		const answers = answersOf(out);
		expect(answers.get('ifeval-1')?.correct).toBe(true); // "answer" is in the 2nd sentence
		expect(answers.get('ifeval-2')?.correct).toBe(false); // 2 declarative, 0 questions: not 2:1
		expect(answers.get('ifeval-3')?.correct).toBe(true); // Punkt finds 2 sentences
		expect(manifestOf(out).nlp_data).toMatch(/^loaded from http:\/\/127\.0\.0\.1.*punkt_tab\.zip/);
		expect(readdirSync(join(cache, 'user-turn-probe', 'nlp'))).toHaveLength(4);
	});

	it('a second run reads the cache and makes no request, even with the host gone', async () => {
		const before = raw.requests.length;
		const gone = await closedPort();
		const out = join(cli.dir, 'second.jsonl');
		const result = await run(out, cache, {
			nltk: raw.nltkDataBase,
			syllapy: raw.syllapyBase
		});
		expect(result.code, result.stderr).toBe(0);
		expect(raw.requests.length).toBe(before);
		expect(answersOf(out).get('ifeval-1')?.correct).toBe(true);
		// The cache is keyed by URL: another host's files are not taken for these.
		const elsewhere = join(cli.dir, 'elsewhere.jsonl');
		const other = await run(elsewhere, cache, { nltk: `${gone}/p`, syllapy: `${gone}/s` });
		expect(other.code).toBe(0);
		expect(answersOf(elsewhere).get('ifeval-1')?.correct).toBeNull();
	});

	it('an unreachable host: the run goes on, says why, and leaves the NLTK-only checks unscored', async () => {
		const gone = await closedPort();
		const out = join(cli.dir, 'offline.jsonl');
		const empty = mkdtempSync(join(tmpdir(), 'utp-nlp-empty-'));
		const result = await run(out, empty, { nltk: `${gone}/packages`, syllapy: `${gone}/syllapy` });
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).toMatch(
			/warning: NLTK's English data could not be loaded: .*127\.0\.0\.1/
		);
		expect(result.stderr).toMatch(/The run goes on/);
		expect(result.stderr).toMatch(
			/Before the next run, point --nltk-data-url \(and --syllapy-url\) at a mirror of the files, or choose --dataset demo/
		);
		const answers = answersOf(out);
		expect(answers.get('ifeval-1')?.correct).toBeNull();
		expect(answers.get('ifeval-1')?.score_detail).toMatch(
			/sentence:keyword needs NLTK's English data, which is not loaded/
		);
		// IFEval's sentence count falls back to the approximation, which also finds 2 here.
		expect(answers.get('ifeval-3')?.correct).toBe(true);
		expect(manifestOf(out).nlp_data).toMatch(/^not loaded: /);
		expect(readdirSync(empty)).toEqual([]);
	});

	it('a run whose items need no NLTK data fetches none and says nothing of it', async () => {
		const before = raw.requests.length;
		const out = join(cli.dir, 'math.jsonl');
		const args = cli.args(out, ['--nltk-data-url', raw.nltkDataBase, '--judge-mode', 'rules']);
		const result = await runMain(args, { XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'utp-')) });
		expect(result.code, result.stderr).toBe(0);
		expect(raw.requests.length).toBe(before);
		expect(result.stderr).not.toMatch(/NLTK/);
		expect(manifestOf(out).nlp_data).toBeUndefined();
	});

	it('--nltk-data-url must be an http(s) URL', async () => {
		const out = join(cli.dir, 'bad.jsonl');
		const result = await run(out, cache, { nltk: 'ftp://mirror/nltk', syllapy: raw.syllapyBase });
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(
			/--nltk-data-url: "ftp:\/\/mirror\/nltk" is not an http\(s\) URL/
		);
	});
});
