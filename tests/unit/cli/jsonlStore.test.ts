import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlStore, sidecarPaths } from '../../../src/cli/jsonlStore.ts';
import { readLines } from '../../../src/cli/lines.ts';
import { makeRecord, makeAnswer } from '../../helpers/factories.ts';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'utp-store-')), 'out.jsonl');

describe('JsonlStore', () => {
	it('puts the manifest and answers beside the records file', () => {
		expect(sidecarPaths('/x/run.jsonl')).toEqual({
			records: '/x/run.jsonl',
			answers: '/x/run.answers.jsonl',
			manifest: '/x/run.manifest.json'
		});
	});

	it('reads back what it wrote after a restart', async () => {
		const out = tmp();
		const a = await JsonlStore.open(out);
		await a.putRecord(makeRecord({ key: 'k1' }));
		await a.putRecord(makeRecord({ key: 'k2' }));
		const b = await JsonlStore.open(out);
		expect((await b.getRecords('run-a')).map((r) => r.key).sort()).toEqual(['k1', 'k2']);
		expect(await b.getRecords('run-a')).toContainEqual(makeRecord({ key: 'k2' }));
	});

	it('drops a torn last line left by a crash and keeps every whole one', async () => {
		const out = tmp();
		const a = await JsonlStore.open(out);
		await a.putRecord(makeRecord({ key: 'k1' }));
		appendFileSync(out, '{"run_id":"run-a","key":"k2","ite');
		const b = await JsonlStore.open(out);
		expect((await b.getRecords('run-a')).map((r) => r.key)).toEqual(['k1']);
		await b.putRecord(makeRecord({ key: 'k2' }));
		expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
		// Offsets written after the repair point at the right bytes.
		expect((await b.getRecords('run-a')).map((r) => r.key).sort()).toEqual(['k1', 'k2']);
	});

	it('keeps a whole last record that only lacks its newline, and completes the line', async () => {
		const out = tmp();
		writeFileSync(out, JSON.stringify(makeRecord({ key: 'k1' })));
		const a = await JsonlStore.open(out);
		expect((await a.getRecords('run-a')).map((r) => r.key)).toEqual(['k1']);
		await a.putRecord(makeRecord({ key: 'k2' }));
		const lines = readFileSync(out, 'utf8').split('\n');
		expect(lines.filter(Boolean).map((l) => JSON.parse(l).key)).toEqual(['k1', 'k2']);
	});

	it('refuses a file with a broken line in the middle, naming the line', async () => {
		const out = tmp();
		writeFileSync(
			out,
			[JSON.stringify(makeRecord({ key: 'k1' })), '{oops', JSON.stringify(makeRecord())].join(
				'\n'
			) + '\n'
		);
		await expect(JsonlStore.open(out)).rejects.toThrow(/out\.jsonl line 2: not JSON/);
		writeFileSync(out, '{"hello":1}\n');
		await expect(JsonlStore.open(out)).rejects.toThrow(/line 1: not a probe record/);
	});

	it('reads a re-stored record last-write-wins and compacts to one line per key', async () => {
		const out = tmp();
		const a = await JsonlStore.open(out);
		await a.putRecord(makeRecord({ key: 'k1', label: null }));
		await a.putRecord(makeRecord({ key: 'k2', label: 'degenerate' }));
		await a.putRecord(makeRecord({ key: 'k1', label: 'degenerate' }));
		expect(
			(await (await JsonlStore.open(out)).getRecords('run-a')).find((r) => r.key === 'k1')?.label
		).toBe('degenerate');
		await a.compact();
		const text = readFileSync(out, 'utf8').split('\n').filter(Boolean);
		expect(text.map((l) => [JSON.parse(l).key, JSON.parse(l).label])).toEqual([
			['k2', 'degenerate'],
			['k1', 'degenerate']
		]);
		// Still readable by offset after the rewrite, and a reopened store finds nothing to compact.
		expect((await a.getRecords('run-a')).map((r) => r.key).sort()).toEqual(['k1', 'k2']);
		const b = await JsonlStore.open(out);
		await b.compact();
		expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toEqual(text);
	});

	it('compacts keys stored twice that it finds on open (a run killed between a store and its re-store)', async () => {
		const out = tmp();
		writeFileSync(
			out,
			[makeRecord({ key: 'k1', label: null }), makeRecord({ key: 'k1' })]
				.map((r) => JSON.stringify(r) + '\n')
				.join('')
		);
		const a = await JsonlStore.open(out);
		await a.compact();
		expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
	});

	it('gives resume labeled records as key and label, and pending ones whole', async () => {
		const out = tmp();
		const a = await JsonlStore.open(out);
		await a.putRecord(makeRecord({ key: 'done', label: 'degenerate' }));
		await a.putRecord(makeRecord({ key: 'pending', label: null }));
		await a.putRecord(makeRecord({ key: 'other-run', run_id: 'run-2' }));
		const got = await (await JsonlStore.open(out)).getResumeRecords('run-a');
		expect(got.get('done')).toEqual({ key: 'done', label: 'degenerate' });
		expect(got.get('pending')).toEqual(makeRecord({ key: 'pending', label: null }));
		expect(got.get('other-run')).toBeUndefined();
		expect(got.get('never')).toBeUndefined();
	});

	it('gives a labelled record whose reference comparison never came back whole, for resume to redo', async () => {
		const out = tmp();
		const a = await JsonlStore.open(out);
		const reference = { reference_turn: 'And the suburbs?', reference_grounding: null };
		const waiting = makeRecord({ key: 'waiting', ...reference, reference_grounding_raw: null });
		const compared = makeRecord({ key: 'compared', ...reference, reference_grounding_raw: 'x' });
		await a.putRecord(waiting);
		await a.putRecord(compared);
		for (const store of [a, await JsonlStore.open(out)]) {
			const got = await store.getResumeRecords('run-a');
			expect(got.get('waiting')).toEqual(waiting);
			expect(got.get('compared')).toEqual({ key: 'compared', label: compared.label });
		}
	});

	it('reads answers back by offset, after a restart too', async () => {
		const out = tmp();
		const a = await JsonlStore.open(out);
		await a.putAnswer(makeAnswer({ item_id: 'i1', answer: 'first' }));
		await a.putAnswer(makeAnswer({ item_id: 'i2', answer: 'second ✓ ünïcode' }));
		expect((await a.getAnswer('run-a', 'i2'))?.answer).toBe('second ✓ ünïcode');
		const b = await JsonlStore.open(out);
		expect((await b.getAnswer('run-a', 'i1'))?.answer).toBe('first');
		expect((await b.getAnswer('run-a', 'i2'))?.answer).toBe('second ✓ ünïcode');
		expect(await b.getAnswer('run-a', 'i3')).toBeUndefined();
	});

	it('remembers the run id of the file so the same command resumes it', async () => {
		const out = tmp();
		const a = await JsonlStore.open(out);
		expect(a.runId).toBeUndefined();
		await a.putManifest({ run_id: 'r-9' } as Parameters<JsonlStore['putManifest']>[0]);
		expect((await JsonlStore.open(out)).runId).toBe('r-9');
	});
});

describe('readLines', () => {
	it('yields every line with byte offsets across chunk boundaries, and an unterminated tail', async () => {
		const out = tmp();
		const long = 'é'.repeat(1_500_000); // 3 MB: spans four 1 MiB read chunks
		writeFileSync(out, `a\n${long}\n\nlast`);
		const lines = [];
		for await (const l of readLines(out)) lines.push(l);
		expect(lines.map((l) => [l.number, l.text.length, l.terminated])).toEqual([
			[1, 1, true],
			[2, 1_500_000, true],
			[3, 0, true],
			[4, 4, false]
		]);
		const bytes = readFileSync(out);
		for (const l of lines) expect(bytes.toString('utf8', l.start, l.end)).toBe(l.text);
	});
});
