/**
 * NLTK's English data in a real browser. A run of an uploaded IFBench-style file whose instructions
 * need Punkt, word_tokenize and the stop words downloads the data from raw.githubusercontent.com
 * (routed here to the committed NLTK subset, zipped as upstream ships it), unzips it in the page,
 * keeps it in Cache Storage, scores with it, and says where it came from in the manifest. A reload
 * (a new tab's memory) runs again from Cache Storage with no request. With the host blocked, in
 * another profile, the run still finishes: the run view warns, the answers are unscored with the
 * reason, and the manifest says it was not loaded; so too when one file answers 404.
 */
import type { Page, Route } from 'playwright-core';
import { upstreamFiles } from '../../helpers/nltkUpstream.ts';
import {
	configureRun,
	need,
	openView,
	setControl,
	startRun,
	UI_TIMEOUT_MS,
	uploadDataset,
	waitForDone
} from '../app.ts';
import type { E2EContext } from '../context.ts';
import { templateSource } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import type { MockOpenAI } from '../../helpers/mockOpenAI.ts';

const RAW = 'https://raw.githubusercontent.com';
const CACHE_NAME = 'user-turn-probe-nlp-v1';
const V = 'setup';

/**
 * The mock's answer (probe script) always reads "Let's work through it step by step. Adding the
 * amounts gives …, plus 4 more is N.\nThe answer is N.\n#### N". Punkt makes its first sentence
 * "Let's work through it step by step."; word_tokenize splits "Let's" into "Let", "'s"; most of its
 * words are stop words. `want` is the strict verdict with NLTK's data.
 */
const ROWS = [
	{
		row: {
			key: 1,
			prompt: 'Explain how to add two prices. Use the word "step" in your first sentence.',
			instruction_id_list: ['sentence:keyword'],
			kwargs: [{ word: 'step', N: 1 }]
		},
		want: true
	},
	{
		row: {
			key: 2,
			prompt: 'Explain how to add two prices. Use the word "answer" in your first sentence.',
			instruction_id_list: ['sentence:keyword'],
			kwargs: [{ word: 'answer', N: 1 }]
		},
		want: false
	},
	{
		row: {
			key: 3,
			prompt: 'Explain how to add two prices. The third word of your first sentence is "work".',
			instruction_id_list: ['words:keywords_specific_position'],
			kwargs: [{ keyword: 'work', n: 1, m: 3 }]
		},
		want: true
	},
	{
		row: {
			key: 4,
			prompt: 'Explain how to add two prices. Keep stop words to at most 10% of your words.',
			instruction_id_list: ['ratio:stop_words'],
			kwargs: [{ percentage: 10 }]
		},
		// Followed only if the stop-word list were empty: false shows it was loaded.
		want: false
	}
] as const;
const PLANNED = ROWS.length;
const FILE = {
	name: 'ifbench-nlp.jsonl',
	mimeType: 'application/x-ndjson',
	buffer: Buffer.from(ROWS.map((r) => JSON.stringify(r.row)).join('\n') + '\n')
};

interface Scored {
	item_id: string;
	answer: string;
	correct: boolean | null;
}

interface Answer {
	item_id: string;
	answer: string;
	correct: boolean | null;
	score_detail: string;
}

/** raw.githubusercontent.com as it answers: the files at their paths, 404 for anything else. */
function fakeRaw(opts: { missing?: string } = {}): {
	handler(route: Route): Promise<void>;
	requests: string[];
} {
	const files = upstreamFiles();
	for (const path of Object.keys(files)) {
		if (opts.missing && path.endsWith(`/${opts.missing}`)) delete files[path];
	}
	const requests: string[] = [];
	return {
		requests,
		async handler(route) {
			const url = new URL(route.request().url());
			requests.push(url.href);
			const body = files[url.pathname];
			const cors = { 'access-control-allow-origin': '*' };
			if (body === undefined) {
				await route.fulfill({
					status: 404,
					headers: { ...cors, 'content-type': 'text/plain; charset=utf-8' },
					body: '404: Not Found'
				});
				return;
			}
			await route.fulfill({
				status: 200,
				headers: { ...cors, 'content-type': 'application/octet-stream' },
				body: Buffer.from(body)
			});
		}
	};
}

async function configure(ctx: E2EContext, page: Page, mock: MockOpenAI): Promise<void> {
	await openView(page, ctx.app.url, '#/setup');
	// The set-up view remembers the last run's rules judge, which hides the judge model's field.
	await setControl(await need(page, V, 'judge-mode'), 'hybrid');
	await configureRun(page, {
		mock,
		template: templateSource(ctx),
		items: PLANNED,
		temperatures: [0],
		truncate: false,
		samples: 1,
		judgeMode: 'rules'
	});
	await uploadDataset(page, FILE, PLANNED);
}

/** Start a configured run, wait for it to be done, and return its id and the start's duration. */
async function runToEnd(page: Page): Promise<{ runId: string; ms: number }> {
	const started = Date.now();
	const runId = await startRun(page);
	await waitForDone(page, runId, PLANNED);
	return { runId, ms: Date.now() - started };
}

async function readRun(
	page: Page,
	runId: string
): Promise<{ records: Scored[]; nlpData: string | undefined }> {
	return page.evaluate(async (runId) => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const req = indexedDB.open('user-turn-probe');
			req.onsuccess = () => resolve(req.result);
			req.onerror = () => reject(req.error);
		});
		const all = (store: string) =>
			new Promise<Record<string, unknown>[]>((resolve, reject) => {
				const req = db.transaction(store, 'readonly').objectStore(store).getAll();
				req.onsuccess = () => resolve(req.result);
				req.onerror = () => reject(req.error);
			});
		try {
			const records = (await all('records')).filter((r) => r.run_id === runId);
			const run = (await all('runs')).find((r) => r.run_id === runId) as
				{ manifest?: { nlp_data?: string } } | undefined;
			return {
				records: records.map((r) => ({
					item_id: String(r.item_id),
					answer: String(r.answer),
					correct: r.correct as boolean | null
				})),
				nlpData: run?.manifest?.nlp_data
			};
		} finally {
			db.close();
		}
	}, runId);
}

/** The records carry no score_detail; the answers store has it. */
async function readAnswers(page: Page, runId: string): Promise<Map<string, Answer>> {
	const rows = await page.evaluate(async (runId) => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const req = indexedDB.open('user-turn-probe');
			req.onsuccess = () => resolve(req.result);
			req.onerror = () => reject(req.error);
		});
		try {
			const names = Array.from(db.objectStoreNames);
			if (!names.includes('answers')) return { names, rows: [] };
			const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
				const req = db.transaction('answers', 'readonly').objectStore('answers').getAll();
				req.onsuccess = () => resolve(req.result);
				req.onerror = () => reject(req.error);
			});
			return { names, rows: rows.filter((r) => r.run_id === runId) };
		} finally {
			db.close();
		}
	}, runId);
	if (rows.rows.length === 0) {
		throw new E2EFailure(`no stored answers for ${runId} (stores: ${rows.names.join(', ')})`);
	}
	return new Map(
		rows.rows.map((r) => [
			String(r.item_id),
			{
				item_id: String(r.item_id),
				answer: String(r.answer),
				correct: r.correct as boolean | null,
				score_detail: String(r.score_detail)
			}
		])
	);
}

/** Every record and stored answer scored as `want` says (a function of the row). */
async function checkScores(
	page: Page,
	runId: string,
	want: (row: (typeof ROWS)[number]) => boolean | null,
	detail?: RegExp
): Promise<string> {
	const { records } = await readRun(page, runId);
	const answers = await readAnswers(page, runId);
	check(records.length === PLANNED, `run ${runId} stored ${records.length} records`);
	const seen: string[] = [];
	for (const r of ROWS) {
		const id = `ifeval-${r.row.key}`;
		const record = records.find((x) => x.item_id === id);
		const answer = answers.get(id);
		check(record && answer, `run ${runId}: no record or answer for ${id}`);
		check(
			answer.answer.startsWith("Let's work through it step by step."),
			`${id}: the mock's answer is not the one the rows were written for: "${answer.answer}"`
		);
		const expected = want(r);
		check(
			answer.correct === expected && record.correct === expected,
			`${id} (${r.row.instruction_id_list[0]}): stored answer correct ${answer.correct}, record ` +
				`${record.correct}, expected ${expected}; detail "${answer.score_detail}"`
		);
		if (detail) {
			check(detail.test(answer.score_detail), `${id}: score detail "${answer.score_detail}"`);
		}
		seen.push(`${id} ${answer.correct}`);
	}
	return seen.join(', ');
}

async function cacheEntries(page: Page): Promise<string[]> {
	return page.evaluate(async (name) => {
		if (!(await caches.has(name))) return [];
		const keys = await (await caches.open(name)).keys();
		return keys.map((r) => r.url);
	}, CACHE_NAME);
}

export const nlpData: Scenario<E2EContext> = {
	id: 'nlp-data',
	title:
		'NLTK data: fetched from raw.githubusercontent.com, unzipped, cached, scored; a reload reads the cache; host blocked or a file moved: warned, unscored',
	timeoutMs: 120_000,
	async run(ctx) {
		const mock = await ctx.mock('probe');

		// 1. A fresh profile: the four files are fetched once and the answers are scored with them.
		const first = await ctx.profile();
		const raw = fakeRaw();
		await first.context.route(`${RAW}/**`, raw.handler);
		const page = first.page;
		await configure(ctx, page, mock);
		const one = await runToEnd(page);
		const scored = await checkScores(page, one.runId, (r) => r.want);
		const { nlpData } = await readRun(page, one.runId);
		check(
			nlpData?.startsWith(`loaded from ${RAW}/`),
			`manifest nlp_data of a run with the data: "${nlpData}"`
		);
		check(
			raw.requests.length === 4,
			`${raw.requests.length} requests reached raw.githubusercontent.com: ${raw.requests.join(', ')}`
		);
		const cached = await cacheEntries(page);
		check(cached.length === 4, `Cache Storage ${CACHE_NAME} holds ${cached.length}: ${cached}`);
		check(
			(await page.getByTestId('run-error').count()) === 0,
			`the run view shows an error: ${await page.getByTestId('run-errors').allInnerTexts()}`
		);
		ctx.note(`run with the data fetched: ${one.ms} ms to done; ${scored}`);

		// 2. A reload forgets the parsed data; the next run reads Cache Storage, not the network.
		await page.reload();
		await configure(ctx, page, mock);
		const two = await runToEnd(page);
		check(
			raw.requests.length === 4,
			`the run after a reload made ${raw.requests.length - 4} new requests: ${raw.requests.slice(4).join(', ')}`
		);
		await checkScores(page, two.runId, (r) => r.want);
		const again = (await readRun(page, two.runId)).nlpData;
		check(again?.startsWith(`loaded from ${RAW}/`), `nlp_data after a reload: "${again}"`);
		ctx.note(`run after a reload (from Cache Storage): ${two.ms} ms to done, 0 requests`);

		// 3. Another profile with the host blocked: the run finishes, warned, unscored.
		const second = await ctx.profile();
		const blocked: string[] = [];
		await second.context.route(`${RAW}/**`, async (route) => {
			blocked.push(route.request().url());
			await route.abort('connectionrefused');
		});
		const p2 = second.page;
		await configure(ctx, p2, mock);
		// The start waits for the loader (one retry on no answer); the warning shows when it gives up.
		const clicked = Date.now();
		const threeId = await startRun(p2);
		const warning = p2.locator('[data-testid="run-error"][data-stage="scoring"]');
		try {
			await warning.waitFor({ timeout: 30_000 });
		} catch {
			throw new E2EFailure(
				`run view: no scoring warning; errors shown: ${await p2.getByTestId('run-errors').allInnerTexts()}`
			);
		}
		const warnedMs = Date.now() - clicked;
		await waitForDone(p2, threeId, PLANNED);
		const three = { runId: threeId, ms: Date.now() - clicked };
		await checkScores(
			p2,
			three.runId,
			() => null,
			/needs NLTK's English data, which is not loaded/
		);
		const notLoaded = (await readRun(p2, three.runId)).nlpData;
		check(notLoaded?.startsWith('not loaded:'), `nlp_data with the host blocked: "${notLoaded}"`);
		const text = (await warning.innerText()).replace(/\s+/g, ' ');
		check(
			/NLTK's English data could not be loaded/.test(text) &&
				text.includes('raw.githubusercontent.com'),
			`the warning does not say what failed: "${text}"`
		);
		check(!/Skipped|The run stopped/.test(text), `the warning reads as a failure: "${text}"`);
		const status = await (await need(p2, 'run', 'run-status')).getAttribute('data-status');
		check(status === 'done', `run view status with the host blocked: ${status}`);
		check(
			(await cacheEntries(p2)).length === 0,
			'Cache Storage holds entries though nothing was fetched'
		);
		await ctx.screenshot(p2, 'run-nlp-data-blocked');
		// At phone width the warning wraps; the page does not scroll sideways.
		await p2.setViewportSize({ width: 390, height: 844 });
		const wide = await p2.evaluate(() => document.documentElement.scrollWidth);
		check(wide <= 390, `at 390 px wide the run view is ${wide} px wide`);
		await warning.scrollIntoViewIfNeeded();
		await ctx.screenshot(p2, 'run-nlp-data-blocked-phone');
		ctx.note(
			`host blocked: ${blocked.length} attempts, warning ${warnedMs} ms after start, run done in ${three.ms} ms; manifest "${notLoaded}"`
		);
		ctx.note(`warning: "${text.slice(0, 200)}"`);

		// 4. The host answers but one file has moved (404): named in the warning, the run goes on.
		const third = await ctx.profile();
		const moved = fakeRaw({ missing: 'stopwords.zip' });
		await third.context.route(`${RAW}/**`, moved.handler);
		const p3 = third.page;
		await configure(ctx, p3, mock);
		const four = await runToEnd(p3);
		await checkScores(p3, four.runId, () => null, /stopwords\.zip: 404: Not Found/);
		const movedNote = (await readRun(p3, four.runId)).nlpData;
		check(
			movedNote?.startsWith('not loaded:') && movedNote.includes('HTTP 404'),
			`nlp_data with a file missing upstream: "${movedNote}"`
		);
		const movedText = await p3
			.locator('[data-testid="run-error"][data-stage="scoring"]')
			.innerText({ timeout: UI_TIMEOUT_MS });
		check(
			movedText.includes('stopwords.zip'),
			`the warning does not name the missing file: "${movedText}"`
		);
		ctx.note(
			`one file 404: ${moved.requests.length} requests, run done in ${four.ms} ms, ` +
				`${(await cacheEntries(p3)).length} files kept in Cache Storage`
		);
	}
};
