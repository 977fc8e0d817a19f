import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { loadDataset } from '../../../src/lib/datasets/registry.ts';
import { OASST_FIRST_TURNS_WHERE } from '../../../src/lib/datasets/tasks/conversations.ts';
import {
	childrenWhere,
	PARENT_IDS_PER_CALL
} from '../../../src/lib/datasets/tasks/oasstThreadsLoad.ts';
import { duckWhere, fakeHfServer, recordingSleep } from './fakeHfServer.ts';
import { oasstMessageRows } from './hfFixtureRows.ts';

const parsed = new Map<string, ReturnType<typeof duckWhere>>();
/** The server's DuckDB, for the predicates the loader sends (parsed once per `where`). */
const sql = (row: Record<string, unknown>, where: string) => {
	let test = parsed.get(where);
	if (!test) parsed.set(where, (test = duckWhere(where)));
	return test(row);
};
const whereOf = (url: string) => new URL(url).searchParams.get('where') ?? '';
/** The first tree whose thread has a human reply (the file's first tree has none). */
const EYES = 'ea201f57-d24a-40f3-a0a7-ad15b893e538';
const rootRow = (rows: Record<string, unknown>[]) => {
	const root = rows.find((r) => r.message_id === EYES);
	if (!root) throw new Error('fixture changed');
	return root;
};

describe('oasst_threads', () => {
	it('builds one item per thread of the real trees: first turn, best-ranked answered reply, human reply', async () => {
		const rows = oasstMessageRows();
		const server = fakeHfServer(rows, { filter: sql });
		const progress: [number, number][] = [];
		const items = await loadDataset('oasst_threads', {
			fetch: server.fetch,
			onProgress: (done, total) => progress.push([done, total])
		});
		// 100 trees: 5 start with a synthetic (model-written) prompt, 8 more have no human reply
		// to any assistant reply; counted from en_100_tree.jsonl.
		expect(items).toHaveLength(87);
		expect(items[0]).toMatchObject({
			id: `oasst-thread-${EYES}`,
			task: 'none',
			prompt:
				'How to protect my eyes when I have to stare at my computer screen for longer than 10 hours every day?',
			reference_turn: 'Are blue light blocking glasses also effective?'
		});
		expect(items[0].fixed_answer).toMatch(
			/^Your eyes are not designed to stare at one thing in front of you for many hours\./
		);
		// Fès: the rank-0 reply has no human answer; the rank-1 reply (answered "Thanks!") is used.
		const fes = items.find((i) => i.id === 'oasst-thread-5dc57299-af9d-407c-87df-94cb8d701797');
		expect(fes?.fixed_answer).toMatch(/^Here are some of the most important places to visit/);
		expect(fes?.reference_turn).toBe('Thanks!');
		// Each reference answers its fixed answer in the source rows.
		const byId = new Map(rows.map((r) => [r.message_id, r]));
		const byText = new Map(rows.map((r) => [r.text, r]));
		for (const item of items) {
			const reply = byText.get(item.reference_turn);
			const answer = byId.get(reply?.parent_id as string);
			expect(answer?.role).toBe('assistant');
			expect(reply?.synthetic).toBe(false);
		}
		expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1]);
		expect(progress.map(([done]) => done)).toEqual(
			[...progress.map(([d]) => d)].sort((a, b) => a - b)
		);
	});

	it('asks /filter in rounds: English roots, assistant replies, then user replies, in bounded calls', async () => {
		const server = fakeHfServer(oasstMessageRows(), { filter: sql });
		await loadDataset('oasst_threads', { fetch: server.fetch });
		// One call per page; a round's `where` repeats for each page of its answer.
		const wheres = [...new Set(server.calls.map(whereOf))];
		expect(wheres[0]).toBe(OASST_FIRST_TURNS_WHERE);
		expect(server.calls.every((u) => new URL(u).pathname === '/filter')).toBe(true);
		const assistantCalls = wheres.filter((w) => w.endsWith(`"role" = 'assistant'`));
		const replyCalls = wheres.filter((w) => w.endsWith(`"role" = 'prompter'`));
		// 95 human roots → 2 calls; their assistant replies → one call per 50.
		expect(assistantCalls).toHaveLength(2);
		expect(replyCalls.length).toBeGreaterThan(2);
		for (const w of [...assistantCalls, ...replyCalls]) {
			expect(w.match(/'[0-9a-f-]{36}'/g)?.length).toBeLessThanOrEqual(PARENT_IDS_PER_CALL);
			expect(w.length).toBeLessThan(2500);
		}
		expect(wheres.indexOf(replyCalls[0])).toBeGreaterThan(wheres.indexOf(assistantCalls[1]));
	});

	it('skips a thread whose assistant replies have no human reply', async () => {
		const rows = oasstMessageRows();
		const root = rootRow(rows);
		const answers = rows.filter((r) => r.parent_id === root.message_id).map((r) => r.message_id);
		const pruned = rows.filter((r) => !answers.includes(r.parent_id as string));
		const server = fakeHfServer(pruned, { filter: sql });
		const items = await loadDataset('oasst_threads', { fetch: server.fetch });
		expect(items).toHaveLength(86);
		expect(items.some((i) => i.id === `oasst-thread-${root.message_id}`)).toBe(false);
	});

	it('never takes a deleted, rejected, blank or model-written reply as the human turn', async () => {
		const rows = oasstMessageRows();
		const first = (id: string) => rows.filter((r) => r.parent_id === id);
		const root = rootRow(rows);
		const best = first(root.message_id as string).find((r) => r.rank === 0);
		const reply = first(best?.message_id as string)[0];
		for (const change of [
			{ deleted: true },
			{ review_result: false },
			{ text: '  ' },
			{ synthetic: true }
		]) {
			const edited = rows.map((r) => (r === reply ? { ...r, ...change } : r));
			const items = await loadDataset('oasst_threads', {
				fetch: fakeHfServer(edited, { filter: sql }).fetch
			});
			const item = items.find((i) => i.id === `oasst-thread-${root.message_id}`);
			expect(item?.reference_turn).not.toBe(reply.text);
		}
	});

	it('rides out a 500 and a 429 between rounds, waiting as told', async () => {
		const { sleep, waits } = recordingSleep();
		const server = fakeHfServer(oasstMessageRows(), {
			filter: sql,
			failures: {
				1: { status: 500, body: '{"error":"Unexpected error."}' },
				4: { status: 429, body: '{"error":"Too Many Requests"}', retryAfter: '3' }
			}
		});
		const items = await loadDataset('oasst_threads', { fetch: server.fetch, sleep });
		expect(items).toHaveLength(87);
		expect(whereOf(server.calls[1])).toBe(whereOf(server.calls[2]));
		expect(whereOf(server.calls[4])).toBe(whereOf(server.calls[5]));
		expect(waits).toContain(3000);
	});

	it('fails with a DatasetError when the server keeps failing mid-rounds', async () => {
		const { sleep } = recordingSleep();
		const failures = Object.fromEntries(
			Array.from({ length: 10 }, (_, i) => [
				i + 3,
				{ status: 500, body: '{"error":"Unexpected error."}' }
			])
		);
		const server = fakeHfServer(oasstMessageRows(), { filter: sql, failures });
		const load = loadDataset('oasst_threads', { fetch: server.fetch, sleep });
		await expect(load).rejects.toThrow(DatasetError);
		await expect(load).rejects.toThrow(/HTTP 500/);
	});

	it('quotes ids as SQL strings', () => {
		expect(childrenWhere(["a'b", 'c'], 'prompter')).toBe(
			`"parent_id" IN ('a''b', 'c') AND "role" = 'prompter'`
		);
		expect(
			duckWhere(childrenWhere(["a'b"], 'prompter'))({ parent_id: "a'b", role: 'prompter' })
		).toBe(true);
	});
});
