/**
 * GPQA through a user's Hugging Face token, against a local server that answers as the Hub does
 * for a gated dataset. The questions here are made up: no real GPQA text is in this repository.
 */
import { afterEach, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import {
	cleanHfToken,
	GPQA_COLUMNS,
	GPQA_PAGE,
	GpqaAccessError
} from '../../../src/lib/datasets/tasks/gpqa.ts';
import {
	gpqaCsvUrl,
	loadGpqa,
	normalizeGpqaRow,
	parseGpqaCsv
} from '../../../src/lib/datasets/tasks/gpqaLoad.ts';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { datasetCacheKey, loadDataset, DATASETS } from '../../../src/lib/datasets/registry.ts';
import type { DatasetFetch as FetchLike } from '../../../src/lib/datasets/http.ts';
import { extractChoice, choiceCorrect } from '../../../src/lib/probe/scoring/choice.ts';
import { scoreAnswer } from '../../../src/lib/probe/scoring/index.ts';
import type { DatasetItem } from '../../../src/lib/probe/types.ts';
import { GOOD_TOKEN, NOT_ACCEPTED_TOKEN, startFakeHub, type FakeHub } from './fakeHubServer.ts';

const REPO = 'Idavidrein/gpqa';

/** Made-up rows in GPQA's column layout (with extra columns, as the real file has). */
function madeUpRows(n: number): Record<string, string>[] {
	return Array.from({ length: n }, (_, i) => ({
		'Pre-Revision Question': `draft ${i}`,
		Question: `Made-up question ${i}: which colour is the imaginary mineral "zorbite-${i}"?\nThink.`,
		'Correct Answer': `teal ${i}`,
		'Incorrect Answer 1': ` mauve ${i}`,
		'Incorrect Answer 2': `ochre ${i}\n`,
		'Incorrect Answer 3': `"umber" ${i}, dark`,
		'Record ID': `recFAKE${String(i).padStart(4, '0')}`,
		'High-level domain': 'Made-up'
	}));
}

function csvOf(rows: Record<string, string>[]): string {
	return Papa.unparse(rows);
}

const fetchImpl: FetchLike = (url, init) => fetch(url, init);
const noSleep = async () => {};

let hub: FakeHub | undefined;
afterEach(async () => {
	await hub?.close();
	hub = undefined;
});

async function startHub(redirect = false, files?: Record<string, string>): Promise<FakeHub> {
	hub = await startFakeHub({
		repo: REPO,
		files: files ?? {
			'gpqa_diamond.csv': csvOf(madeUpRows(6)),
			'gpqa_main.csv': csvOf(madeUpRows(9))
		},
		redirect
	});
	return hub;
}

describe('loadGpqa against a Hub stand-in', () => {
	it('reads the CSV with the token as a Bearer header and builds multiple-choice items', async () => {
		const h = await startHub();
		const items = await loadGpqa('diamond', { fetch: fetchImpl, token: GOOD_TOKEN, base: h.base });
		expect(items).toHaveLength(6);
		expect(h.requests).toHaveLength(1);
		expect(h.requests[0].path).toBe(`/datasets/${REPO}/resolve/main/gpqa_diamond.csv`);
		expect(h.requests[0].headers.authorization).toBe(`Bearer ${GOOD_TOKEN}`);
		const first = items[0];
		expect(first.id).toBe('gpqa-diamond-recFAKE0000');
		expect(first.task).toBe('multiple_choice');
		expect(first.choices).toHaveLength(4);
		// Cells are trimmed; the gold letter points at the correct answer wherever it landed.
		expect(first.choices).toContain('mauve 0');
		expect(first.choices?.['ABCD'.indexOf(first.gold ?? '')]).toBe('teal 0');
		expect(first.prompt.startsWith('Made-up question 0:')).toBe(true);
		expect(first.prompt).toContain(`\n\nA. ${first.choices?.[0]}\nB. `);
	});

	it('a token pasted with spaces or a newline around it is trimmed before it is sent', async () => {
		const h = await startHub();
		await loadGpqa('main', { fetch: fetchImpl, token: `  ${GOOD_TOKEN}\n`, base: h.base });
		expect(h.requests[0].headers.authorization).toBe(`Bearer ${GOOD_TOKEN}`);
	});

	it('a token with whitespace inside is refused before any request', async () => {
		const h = await startHub();
		const err = await loadGpqa('main', {
			fetch: fetchImpl,
			token: 'hf_abc def',
			base: h.base
		}).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(GpqaAccessError);
		expect((err as GpqaAccessError).reason).toBe('bad_token');
		expect((err as Error).message).toMatch(/space or line break/);
		expect(h.requests).toHaveLength(0);
	});

	it('with no token says why GPQA is unavailable and how to get access, without a request', async () => {
		const h = await startHub();
		for (const token of [undefined, '', '   ']) {
			const err = await loadGpqa('diamond', { fetch: fetchImpl, token, base: h.base }).catch(
				(e: unknown) => e
			);
			expect(err).toBeInstanceOf(GpqaAccessError);
			expect((err as GpqaAccessError).reason).toBe('no_token');
			const msg = (err as Error).message;
			expect(msg).toContain('gated');
			expect(msg).toContain(GPQA_PAGE);
			expect(msg).toContain('settings/tokens');
			expect(msg).toMatch(/import GPQA yourself/);
		}
		expect(h.requests).toHaveLength(0);
	});

	it('401 from the Hub (unknown or revoked token) is explained, with the server reason', async () => {
		const h = await startHub();
		const err = await loadGpqa('diamond', {
			fetch: fetchImpl,
			token: 'hf_revokedToken',
			base: h.base
		}).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(GpqaAccessError);
		expect((err as GpqaAccessError).reason).toBe('unauthorized');
		expect((err as GpqaAccessError).status).toBe(401);
		expect((err as Error).message).toContain('Invalid credentials in Authorization header');
		expect((err as Error).message).toMatch(/import GPQA yourself/);
		// Not retried: a 401 will not change by asking again.
		expect(h.requests).toHaveLength(1);
	});

	it('403 (terms not accepted) says to accept them on the dataset page', async () => {
		const h = await startHub();
		const err = await loadGpqa('diamond', {
			fetch: fetchImpl,
			token: NOT_ACCEPTED_TOKEN,
			base: h.base
		}).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(GpqaAccessError);
		expect((err as GpqaAccessError).reason).toBe('forbidden');
		expect((err as Error).message).toContain('not in the authorized list');
		expect((err as Error).message).toContain(`accept the dataset's terms at ${GPQA_PAGE}`);
		expect(h.requests).toHaveLength(1);
	});

	it('404 (the file moved) is a plain DatasetError naming the URL', async () => {
		const h = await startHub(false, { 'gpqa_main.csv': csvOf(madeUpRows(2)) });
		const err = await loadGpqa('diamond', {
			fetch: fetchImpl,
			token: GOOD_TOKEN,
			base: h.base
		}).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(DatasetError);
		expect(err).not.toBeInstanceOf(GpqaAccessError);
		expect((err as DatasetError).status).toBe(404);
		expect((err as Error).message).toContain('Entry not found');
		expect((err as Error).message).toContain('gpqa_diamond.csv');
	});

	it('429 is retried after Retry-After and then succeeds', async () => {
		const h = await startHub();
		h.rateLimitNext(2);
		const items = await loadGpqa('diamond', {
			fetch: fetchImpl,
			token: GOOD_TOKEN,
			base: h.base,
			sleep: noSleep
		});
		expect(items).toHaveLength(6);
		expect(h.requests).toHaveLength(3);
	});

	it('429 on every try gives up with the status and the Hub text', async () => {
		const h = await startHub();
		h.rateLimitNext(100);
		const err = await loadGpqa('diamond', {
			fetch: fetchImpl,
			token: GOOD_TOKEN,
			base: h.base,
			sleep: noSleep
		}).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(DatasetError);
		expect((err as DatasetError).status).toBe(429);
		expect((err as Error).message).toMatch(/rate-limited/);
	});

	it('a redirect to another origin (the CDN) does not carry the token there', async () => {
		const h = await startHub(true);
		const items = await loadGpqa('diamond', { fetch: fetchImpl, token: GOOD_TOKEN, base: h.base });
		expect(items).toHaveLength(6);
		expect(h.requests[0].headers.authorization).toBe(`Bearer ${GOOD_TOKEN}`);
		expect(h.cdnRequests).toHaveLength(1);
		expect(h.cdnRequests[0].headers.authorization).toBeUndefined();
	});

	it('the app reads from huggingface.co', () => {
		expect(gpqaCsvUrl('diamond')).toBe(
			'https://huggingface.co/datasets/Idavidrein/gpqa/resolve/main/gpqa_diamond.csv'
		);
	});
});

describe('parseGpqaCsv', () => {
	it('refuses a file with a missing column, naming it', async () => {
		const rows = madeUpRows(2).map((r) => {
			const copy: Record<string, string> = { ...r };
			delete copy['Incorrect Answer 2'];
			return copy;
		});
		await expect(parseGpqaCsv(csvOf(rows), 'main')).rejects.toThrow(
			/no column 'Incorrect Answer 2'/
		);
	});

	it('refuses an empty option or question, and a file with no rows', async () => {
		const rows = madeUpRows(2);
		rows[1]['Incorrect Answer 3'] = '  ';
		await expect(parseGpqaCsv(csvOf(rows), 'main')).rejects.toThrow(
			/row 2 \(gpqa-main-recFAKE0001\): 'Incorrect Answer 3' is empty/
		);
		await expect(parseGpqaCsv(GPQA_COLUMNS.join(','), 'main')).rejects.toThrow(/no rows/);
		await expect(parseGpqaCsv('', 'main')).rejects.toThrow(DatasetError);
	});

	it('refuses duplicate Record IDs (records are keyed by item id)', async () => {
		const rows = madeUpRows(2);
		rows[1]['Record ID'] = rows[0]['Record ID'];
		await expect(parseGpqaCsv(csvOf(rows), 'main')).rejects.toThrow(/duplicate Record ID/);
	});

	it('rows without a Record ID are named by their index', async () => {
		const rows = madeUpRows(2).map(({ 'Record ID': _, ...rest }) => rest);
		expect((await parseGpqaCsv(csvOf(rows), 'diamond')).map((i) => i.id)).toEqual([
			'gpqa-diamond-0',
			'gpqa-diamond-1'
		]);
	});
});

describe('seeded option shuffle', () => {
	const row = madeUpRows(1)[0];
	it('is the same every time for an item and spreads the correct answer over the letters', () => {
		const a = normalizeGpqaRow(row, 0, 'diamond');
		const b = normalizeGpqaRow(row, 0, 'diamond');
		expect(b).toEqual(a);
		const golds = new Map<string, number>();
		for (const r of madeUpRows(200)) {
			const item = normalizeGpqaRow(r, 0, 'main');
			golds.set(item.gold ?? '', (golds.get(item.gold ?? '') ?? 0) + 1);
			expect(item.choices?.['ABCD'.indexOf(item.gold ?? '')]).toBe(r['Correct Answer']);
		}
		// Every letter is gold for some items; with 200 items each gets 50 ± a few dozen.
		expect([...golds.keys()].sort()).toEqual(['A', 'B', 'C', 'D']);
		for (const count of golds.values()) expect(count).toBeGreaterThan(25);
	});

	it('the multiple-choice scorer marks the shuffled gold letter right and the others wrong', () => {
		const item = normalizeGpqaRow(row, 0, 'diamond');
		const gold = item.gold ?? '';
		expect(extractChoice(`The answer is (${gold}).`, 4)).toBe(gold);
		expect(choiceCorrect(`Answer: ${gold}`, gold, 4)).toBe(true);
		const wrong = 'ABCD'.replace(gold, '')[0];
		expect(choiceCorrect(`Answer: ${wrong}`, gold, 4)).toBe(false);
		expect(scoreAnswer(item, `Answer: ${gold}`).correct).toBe(true);
		expect(scoreAnswer(item, `Answer: ${wrong}`).correct).toBe(false);
	});
});

describe('registry', () => {
	it('lists GPQA Diamond and Main as gated multiple-choice sets with the shuffle note', () => {
		for (const name of ['gpqa_diamond', 'gpqa_main'] as const) {
			expect(DATASETS[name].needs.hfToken?.page).toBe(GPQA_PAGE);
			expect(DATASETS[name].task).toBe('multiple_choice');
			expect(DATASETS[name].note).toMatch(/shuffled per item/);
		}
		expect(datasetCacheKey('gpqa_diamond')).toBe('gpqa_diamond@gpqa_diamond.csv');
	});

	it('loadDataset passes the token to the Hub and caches the items, not the token', async () => {
		const h = await startHub();
		const puts: [string, DatasetItem[]][] = [];
		const items = await loadDataset('gpqa_main', {
			fetch: fetchImpl,
			token: GOOD_TOKEN,
			hubBase: h.base,
			cache: { get: async () => undefined, put: async (k, v) => void puts.push([k, v]) }
		});
		expect(items).toHaveLength(9);
		expect(puts).toHaveLength(1);
		expect(JSON.stringify(puts)).not.toContain(GOOD_TOKEN);
	});

	it('loadDataset without a token fails with the access explanation', async () => {
		await expect(loadDataset('gpqa_diamond', { fetch: fetchImpl })).rejects.toBeInstanceOf(
			GpqaAccessError
		);
	});
});

describe('cleanHfToken', () => {
	it('trims, treats blank as none and refuses inner whitespace', () => {
		expect(cleanHfToken(' hf_x \n')).toBe('hf_x');
		expect(cleanHfToken('')).toBeUndefined();
		expect(cleanHfToken(undefined)).toBeUndefined();
		expect(() => cleanHfToken('hf_a\tb')).toThrow(GpqaAccessError);
	});
});
