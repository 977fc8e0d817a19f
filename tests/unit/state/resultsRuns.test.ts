/** The runs view's state and pure helpers, over a real DexieRunStore in fake-indexeddb. */
import { describe, expect, it } from 'vitest';
import { bundleToFiles } from '../../../src/lib/probe/exchange.ts';
import { summarize, wilson } from '../../../src/lib/stats/aggregate.ts';
import {
	compareRuns,
	exportFileName,
	newcombeDiff,
	pickRunFiles
} from '../../../src/lib/results/runsData.ts';
import { closeAfterEach, file, setup } from './runsHarness.ts';
import { makeBundle, makeRecord } from '../../helpers/factories.ts';

closeAfterEach();

describe('RunsState', () => {
	it('lists runs with record counts and follow-up rates from the indexes', async () => {
		const { store, state } = setup('runs-list');
		const bundle = makeBundle(12, 'run-a');
		bundle.records[1].label = null;
		await store.importRun(bundle);
		await store.importRun(makeBundle(6, 'run-b'));
		await state.load();
		const a = state.runs.find((r) => r.run_id === 'run-a');
		const labelled = bundle.records.filter((r) => r.label !== null);
		const followups = labelled.filter((r) => r.label === 'genuine_followup').length;
		expect(a).toMatchObject({ model: 'Qwen3-0.6B-q4f16_1-MLC', dataset: 'gsm8k', records: 12 });
		expect(a?.pending).toBe(1);
		expect(a?.followup).toEqual(wilson(followups, labelled.length));
	});

	it('exports the CLI file pair and a CSV, with no secret in them', async () => {
		const { store, state, saved } = setup('runs-export');
		const bundle = makeBundle(4, 'run-a');
		(bundle.manifest.config as unknown as Record<string, unknown>).api_key = 'sk-secret';
		await store.importRun(bundle);
		await state.exportFile('run-a', 'jsonl');
		await state.exportFile('run-a', 'manifest');
		await state.exportFile('run-a', 'csv');
		expect(saved.map((f) => f.name)).toEqual(['run-a.jsonl', 'run-a.manifest.json', 'run-a.csv']);
		expect(saved[0].text.trim().split('\n')).toHaveLength(4);
		expect(JSON.parse(saved[1].text).run_id).toBe('run-a');
		expect(saved[2].text.split('\r\n')[0]).toContain('user_turn');
		for (const f of saved) expect(f.text).not.toContain('sk-secret');
	});

	it('imports an exported pair into another database, whole', async () => {
		const { store, state, saved } = setup('runs-source');
		await store.importRun(makeBundle(9, 'run-a'));
		await state.exportFile('run-a', 'jsonl');
		await state.exportFile('run-a', 'manifest');

		const target = setup('runs-target');
		await target.state.importFiles([
			file('run-a.manifest.json', saved[1].text),
			file('run-a.jsonl', saved[0].text)
		]);
		expect(target.state.importFailure).toBeNull();
		expect(target.state.imported).toBe('run-a');
		expect(target.state.runs.map((r) => r.run_id)).toEqual(['run-a']);
		expect(await target.store.getRecords('run-a')).toEqual(await store.getRecords('run-a'));
	});

	it('names the file and line of every problem and stores nothing', async () => {
		const { store, state } = setup('runs-bad');
		const { jsonl, manifest } = bundleToFiles(makeBundle(3, 'run-a'));
		const lines = jsonl.split('\n');
		lines[1] = lines[1].replace('"temperature":0.7', '"temperature":"hot"');
		await state.importFiles([
			file('mine.jsonl', lines.join('\n')),
			file('mine.manifest.json', manifest.replace('"status": "done"', '"status": "great"'))
		]);
		expect(state.importFailure?.message).toBe('Nothing was imported: the files have 2 problems.');
		expect(state.importFailure?.problems).toEqual([
			'mine.manifest.json: field status must be one of running, paused, done, failed',
			'mine.jsonl, line 2: field temperature must be a number'
		]);
		expect(await store.listRuns()).toEqual([]);
	});

	it('asks before replacing a stored run, then copies or replaces it', async () => {
		const { store, state } = setup('runs-conflict');
		await store.importRun(makeBundle(3, 'run-a'));
		const { jsonl, manifest } = bundleToFiles(makeBundle(5, 'run-a'));
		const files = [file('a.jsonl', jsonl), file('a.manifest.json', manifest)];

		await state.importFiles(files);
		expect(state.importFailure?.conflict).toBe('run-a');
		expect(await store.countRecords('run-a')).toBe(3);

		await state.resolveConflict('rename');
		expect(state.imported).toBe('run-a-2');
		expect(await store.countRecords('run-a-2')).toBe(5);

		await state.importFiles(files);
		await state.resolveConflict('replace');
		expect(state.importFailure).toBeNull();
		expect(await store.countRecords('run-a')).toBe(5);
	});

	it('takes answers from the CLI answers file when the manifest has none', async () => {
		const { store, state } = setup('runs-answers');
		const bundle = makeBundle(6, 'run-a');
		const { jsonl, manifest } = bundleToFiles({ ...bundle, answers: [] });
		const answers = (bundle.answers ?? []).map((a) => JSON.stringify(a)).join('\n');
		await state.importFiles([
			file('out.jsonl', jsonl),
			file('out.manifest.json', manifest),
			file('out.answers.jsonl', answers)
		]);
		expect(state.importFailure).toBeNull();
		expect((await store.exportRun('run-a')).answers).toHaveLength(bundle.answers?.length ?? -1);
	});

	it('shares a run as one file that imports alone, whole, with no secret in it', async () => {
		const { store, state, saved } = setup('runs-share');
		const bundle = makeBundle(7, 'run-a');
		(bundle.manifest.config as unknown as Record<string, unknown>).api_key = 'sk-secret';
		await store.importRun(bundle);
		await state.exportFile('run-a', 'run');
		expect(saved[0].name).toBe('run-a.run.jsonl');
		expect(saved[0].text).not.toContain('sk-secret');

		const target = setup('runs-share-target');
		await target.state.importFiles([file('run-a.run.jsonl', saved[0].text)]);
		expect(target.state.importFailure).toBeNull();
		expect(target.state.imported).toBe('run-a');
		expect(await target.store.getRecords('run-a')).toEqual(await store.getRecords('run-a'));
		expect((await target.store.exportRun('run-a')).answers).toEqual(
			(await store.exportRun('run-a')).answers
		);
	});

	it('refuses a broken run file with its line, and a lone records file, storing nothing', async () => {
		const { store, state, saved } = setup('runs-share-bad');
		await store.importRun(makeBundle(3, 'run-a'));
		await state.exportFile('run-a', 'run');
		const target = setup('runs-share-bad-target');
		const lines = saved[0].text.split('\n');
		lines[3] = lines[3].replace(/"temperature":[^,]+/, '"temperature":"hot"');
		await target.state.importFiles([file('shared.run.jsonl', lines.join('\n'))]);
		expect(target.state.importFailure?.problems).toEqual([
			'shared.run.jsonl, line 4: field temperature must be a number'
		]);
		await target.state.importFiles([file('only.jsonl', bundleToFiles(makeBundle(2)).jsonl)]);
		expect(target.state.importFailure?.message).toMatch(/one run file \(\.run\.jsonl\)/);
		expect(target.state.importFailure?.problems).toContain(
			'missing: the manifest file (.manifest.json)'
		);
		expect(await target.store.listRuns()).toEqual([]);
	});

	it('compares two picked runs and forgets a deleted one', async () => {
		const { store, state } = setup('runs-compare');
		const a = makeBundle(12, 'run-a');
		const b = makeBundle(12, 'run-b');
		b.records.forEach((r) => (r.label = 'degenerate'));
		await store.importRun(a);
		await store.importRun(b);
		await state.load();
		state.toggleSelected('run-a');
		state.toggleSelected('run-b');
		await state.compare();
		expect(state.comparison?.rows).toEqual(compareRuns(summarize(a.records), summarize(b.records)));

		await state.remove('run-b');
		expect(state.comparison).toBeNull();
		expect(state.selected).toEqual(['run-a']);
		expect(await store.getRun('run-b')).toBeUndefined();
	});

	it('keeps every pick in pick order, for a study; a second pick unpicks', () => {
		const { state } = setup('runs-pick');
		for (const id of ['x', 'y', 'z']) state.toggleSelected(id);
		expect(state.selected).toEqual(['x', 'y', 'z']);
		state.toggleSelected('y');
		expect(state.selected).toEqual(['x', 'z']);
	});
});

describe('pickRunFiles', () => {
	const f = (name: string) => ({ name });
	it.each([
		[['r.jsonl', 'r.manifest.json'], []],
		[['r.jsonl', 'r.manifest.json', 'r.answers.jsonl'], []],
		[['r.jsonl'], ['missing: the manifest file (.manifest.json)']],
		[
			['r.jsonl', 'x.jsonl', 'r.manifest.json'],
			['x.jsonl: a second records file (r.jsonl is the first)']
		],
		[
			['r.csv'],
			[
				'r.csv: not a run file (expected .jsonl or .manifest.json)',
				'missing: the records file (.jsonl)',
				'missing: the manifest file (.manifest.json)'
			]
		]
	])('%j → %j', (names, problems) => {
		expect(pickRunFiles(names.map(f)).problems).toEqual(problems);
	});
});

describe('compareRuns', () => {
	it('lines up every condition of either run and differences both', () => {
		const a = summarize([
			makeRecord({ temperature: 0, label: 'genuine_followup' }),
			makeRecord({ temperature: 1, label: 'degenerate' })
		]);
		const b = summarize([makeRecord({ temperature: 0, label: 'degenerate', correct: false })]);
		const rows = compareRuns(a, b);
		expect(rows.map((r) => [r.temperature, r.a !== null, r.b !== null])).toEqual([
			[0, true, true],
			[1, true, false]
		]);
		expect(rows[0].followupDiff?.estimate).toBe(-1);
		expect(rows[0].accuracyDiff).toBe(-1);
		expect(rows[1].followupDiff).toBeNull();
	});
});

describe('newcombeDiff', () => {
	it('matches the worked example of Newcombe (1998), 56/70 vs 48/80', () => {
		// Newcombe 1998, Table II example (a): difference 0.2000, method 10 interval 0.0524 to 0.3339.
		const d = newcombeDiff(wilson(48, 80), wilson(56, 70));
		expect(d?.estimate).toBeCloseTo(0.2, 10);
		expect(d?.lo).toBeCloseTo(0.0524, 4);
		expect(d?.hi).toBeCloseTo(0.3339, 4);
	});

	it('is null when either side has nothing labelled', () => {
		expect(newcombeDiff(wilson(0, 0), wilson(1, 2))).toBeNull();
	});
});

describe('exportFileName', () => {
	it('uses the CLI names and keeps path characters out', () => {
		expect(exportFileName('run 1/a', 'manifest')).toBe('run_1_a.manifest.json');
		expect(exportFileName('r', 'csv')).toBe('r.csv');
	});
});
