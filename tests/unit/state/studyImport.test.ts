/**
 * Import reads a study file: each run as a run file is read, all checked before any is stored, then
 * stored all or none; a run already here stands in for itself; a bad run is named.
 */
import { describe, expect, it } from 'vitest';
import { bundleToFiles } from '../../../src/lib/probe/exchange.ts';
import { bundleToRunFile } from '../../../src/lib/probe/runFile.ts';
import { studyToFile } from '../../../src/lib/probe/studyFile.ts';
import type { RunBundle } from '../../../src/lib/probe/exchange.ts';
import { closeAfterEach, file, setup } from './runsHarness.ts';
import { makeBundle } from '../../helpers/factories.ts';

closeAfterEach();

const study = (...bundles: RunBundle[]) => studyToFile(bundles.map(bundleToRunFile));
const ids = async (s: ReturnType<typeof setup>) =>
	(await s.store.listRuns()).map((r) => r.run_id).sort();

describe('importing a study file', () => {
	it('stores each run as Import would and hands back the study in its order', async () => {
		const s = setup('study-import');
		const text = study(makeBundle(6, 'run-b'), makeBundle(4, 'run-a'), makeBundle(2, 'run-c'));
		await s.state.importFiles([file('three.study.jsonl', text)]);
		expect(s.state.importFailure).toBeNull();
		expect(s.state.importedStudy).toEqual({
			run_ids: ['run-b', 'run-a', 'run-c'],
			already: [],
			added: ['run-b', 'run-a', 'run-c'],
			copies: []
		});
		expect(await ids(s)).toEqual(['run-a', 'run-b', 'run-c']);
		expect((await s.store.getRecords('run-a')).length).toBe(4);
		expect(s.state.runs.map((r) => r.run_id).sort()).toEqual(['run-a', 'run-b', 'run-c']);
	});

	it('keeps a run already here as stored when it is the same run, and says so', async () => {
		const s = setup('study-again');
		await s.store.importRun(makeBundle(6, 'run-a'));
		await s.state.importFiles([
			file('s.study.jsonl', study(makeBundle(6, 'run-a'), makeBundle(3, 'run-b')))
		]);
		expect(s.state.importFailure).toBeNull();
		expect(s.state.importedStudy).toEqual({
			run_ids: ['run-a', 'run-b'],
			already: ['run-a'],
			added: ['run-b'],
			copies: []
		});
		expect(await ids(s)).toEqual(['run-a', 'run-b']);
	});

	it('never shows another run that has the study run’s id: stores the study’s as a copy', async () => {
		const s = setup('study-collide');
		// This browser's run-a: another model, other records (before: the study showed this one).
		const local = makeBundle(6, 'run-a');
		local.manifest = { ...local.manifest, config_hash: 'local-config' };
		await s.store.importRun(local);
		const theirs = makeBundle(4, 'run-a');
		theirs.manifest = { ...theirs.manifest, config_hash: 'their-config' };
		await s.state.importFiles([file('s.study.jsonl', study(theirs, makeBundle(3, 'run-b')))]);
		expect(s.state.importFailure).toBeNull();
		expect(s.state.importedStudy).toEqual({
			run_ids: ['run-a-2', 'run-b'],
			already: [],
			added: ['run-a-2', 'run-b'],
			copies: [{ from: 'run-a', to: 'run-a-2' }]
		});
		expect(await ids(s)).toEqual(['run-a', 'run-a-2', 'run-b']);
		expect((await s.store.getRecords('run-a')).length).toBe(6);
		expect((await s.store.getRecords('run-a-2')).length).toBe(4);
		expect((await s.store.getRun('run-a-2'))?.manifest.config_hash).toBe('their-config');
		// The same study again: its copy is found and kept, nothing more is stored.
		await s.state.importFiles([file('s.study.jsonl', study(theirs, makeBundle(3, 'run-b')))]);
		expect(s.state.importedStudy).toEqual({
			run_ids: ['run-a-2', 'run-b'],
			already: ['run-a-2', 'run-b'],
			added: [],
			copies: []
		});
		expect(await ids(s)).toEqual(['run-a', 'run-a-2', 'run-b']);
	});

	it('stores a copy when only the records differ (the same config, other labels)', async () => {
		const s = setup('study-records');
		await s.store.importRun(makeBundle(4, 'run-a'));
		const relabelled = makeBundle(4, 'run-a');
		relabelled.records[0] = { ...relabelled.records[0], user_turn: 'something else entirely' };
		await s.state.importFiles([file('s.study.jsonl', study(relabelled))]);
		expect(s.state.importedStudy?.copies).toEqual([{ from: 'run-a', to: 'run-a-2' }]);
		const copy = await s.store.getRecords('run-a-2');
		const changed = copy.find((r) => r.key === relabelled.records[0].key);
		expect(changed?.user_turn).toBe('something else entirely');
	});

	it('refuses a study with two runs under one id, naming it, and stores none', async () => {
		const s = setup('study-dup');
		const text = study(makeBundle(4, 'run-a'), makeBundle(3, 'run-b'), makeBundle(5, 'run-a'));
		await s.state.importFiles([file('s.study.jsonl', text)]);
		expect(s.state.importedStudy).toBeNull();
		expect(s.state.importFailure?.problems).toEqual([
			'the study lists run "run-a" more than once; each run of a study needs its own id'
		]);
		expect(await ids(s)).toEqual([]);
	});

	it('names the bad run and stores none of the study', async () => {
		const s = setup('study-bad');
		const good = bundleToRunFile(makeBundle(4, 'run-a'));
		const bad = bundleToRunFile(makeBundle(4, 'run-b')).replace(
			/"label":"[^"]+"/,
			'"label":"great"'
		);
		await s.state.importFiles([file('s.study.jsonl', studyToFile([good, bad]))]);
		expect(s.state.importedStudy).toBeNull();
		expect(s.state.importFailure?.message).toMatch(/^Nothing was imported/);
		expect(s.state.importFailure?.problems[0]).toMatch(
			/^s\.study\.jsonl, run 2 \(run-b\), annotations\[0\]: field label/
		);
		expect(await ids(s)).toEqual([]);
	});

	it('removes the runs it added when the store fails midway (storage full)', async () => {
		const s = setup('study-full');
		const real = s.store.importRun.bind(s.store);
		let calls = 0;
		s.store.importRun = async (bundle, opts) => {
			if (++calls === 3)
				throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
			return real(bundle, opts);
		};
		await s.store.importRun(makeBundle(2, 'run-old'));
		const text = study(makeBundle(4, 'run-a'), makeBundle(4, 'run-b'), makeBundle(4, 'run-c'));
		await s.state.importFiles([file('s.study.jsonl', text)]);
		expect(s.state.importFailure?.message).toMatch(/^Nothing was imported: .*quota/i);
		expect(s.state.importedStudy).toBeNull();
		expect(await ids(s)).toEqual(['run-old']);
	});

	it('refuses a study that lists its runs by address: a file here cannot reach them', async () => {
		const s = setup('study-links');
		const text = JSON.stringify({
			format: 'user-turn-probe-study',
			version: 1,
			runs: ['a.run.jsonl']
		});
		await s.state.importFiles([file('s.study.json', text)]);
		expect(s.state.importFailure?.problems[0]).toMatch(
			/pick its runs’ files together \(or the sweep’s \.study\.jsonl\), or open the study by its link/
		);
		expect(await ids(s)).toEqual([]);
	});
});

describe('importing several runs’ files at once', () => {
	/** A run as the CLI leaves it: OUT.jsonl, OUT.manifest.json (answers in OUT.answers.jsonl). */
	const cliFiles = (stem: string, b: RunBundle) => {
		const { jsonl, manifest } = bundleToFiles({ ...b, answers: [] });
		const answers = (b.answers ?? []).map((a) => JSON.stringify(a)).join('\n');
		return [
			file(`${stem}.jsonl`, jsonl),
			file(`${stem}.manifest.json`, manifest),
			file(`${stem}.answers.jsonl`, answers ? answers + '\n' : '')
		];
	};

	it('stores a sweep’s files (records, manifest, answers per run) as one study, in pick order', async () => {
		const s = setup('runs-as-study');
		const [a, b, c] = [makeBundle(4, 'run-a'), makeBundle(3, 'run-b'), makeBundle(2, 'run-c')];
		await s.state.importFiles([
			...cliFiles('sweep.m-b', b),
			...cliFiles('sweep.m-a', a),
			...cliFiles('sweep.m-c', c)
		]);
		expect(s.state.importFailure).toBeNull();
		expect(s.state.importedStudy).toEqual({
			run_ids: ['run-b', 'run-a', 'run-c'],
			already: [],
			added: ['run-b', 'run-a', 'run-c'],
			copies: []
		});
		expect((await s.store.getRecords('run-b')).length).toBe(3);
		expect(await ids(s)).toEqual(['run-a', 'run-b', 'run-c']);
	});

	it('takes whole-run files (.run.jsonl) and a run’s two files together', async () => {
		const s = setup('runs-mixed');
		await s.state.importFiles([
			file('x.run.jsonl', bundleToRunFile(makeBundle(2, 'run-x'))),
			...cliFiles('y', makeBundle(3, 'run-y')).slice(0, 2)
		]);
		expect(s.state.importFailure).toBeNull();
		expect(s.state.importedStudy?.run_ids).toEqual(['run-x', 'run-y']);
	});

	it('names a run that is missing its manifest, a stray file, and stores none', async () => {
		const s = setup('runs-missing');
		const [records] = cliFiles('a', makeBundle(2, 'run-a'));
		await s.state.importFiles([
			records,
			...cliFiles('b', makeBundle(2, 'run-b')),
			file('notes.json', '{}')
		]);
		expect(s.state.importedStudy).toBeNull();
		expect(s.state.importFailure?.problems).toEqual([
			'notes.json: not part of a run (expected .jsonl, .manifest.json or .answers.jsonl)'
		]);
		await s.state.importFiles([records, ...cliFiles('b', makeBundle(2, 'run-b'))]);
		expect(s.state.importFailure?.problems).toEqual([
			'a.jsonl: no manifest picked with it (a.manifest.json), and not a whole-run file (.run.jsonl)'
		]);
		expect(await ids(s)).toEqual([]);
	});

	it('names the bad line of one run by its file, and stores none', async () => {
		const s = setup('runs-bad');
		const bad = cliFiles('b', makeBundle(2, 'run-b'));
		const broken = file(
			'b.jsonl',
			(await bad[0].text()).replace(/"label":"[^"]+"/, '"label":"great"')
		);
		await s.state.importFiles([...cliFiles('a', makeBundle(2, 'run-a')), broken, bad[1]]);
		expect(s.state.importedStudy).toBeNull();
		expect(s.state.importFailure?.problems[0]).toMatch(/^b\.jsonl, line 1: /);
		expect(await ids(s)).toEqual([]);
	});
});
