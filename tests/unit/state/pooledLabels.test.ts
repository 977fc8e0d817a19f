/**
 * A class pooling its labels: share files leave human labels out unless asked, a student's labels
 * export alone, and the teacher merges each file into the one run, per annotator, with the
 * conflicts listed and κ over every annotator.
 */
import { describe, expect, it } from 'vitest';
import { mergeLabels } from '../../../src/lib/annotate/merge.ts';
import { ExchangeError } from '../../../src/lib/probe/exchange.ts';
import { labelsFromFile, labelsToFile } from '../../../src/lib/probe/labelsFile.ts';
import { runFileToBundle } from '../../../src/lib/probe/runFile.ts';
import {
	collectLabelings,
	collectVerdicts,
	pairwiseAgreement
} from '../../../src/lib/stats/agreement.ts';
import { closeAfterEach, file, setup } from './runsHarness.ts';
import { makeAnnotation, makeBundle } from '../../helpers/factories.ts';

closeAfterEach();

describe('pooled labels', () => {
	it('leaves human labels out of a share file unless asked', async () => {
		const { store, state, saved } = setup('pool-share');
		await store.importRun(makeBundle(6, 'run-a'));
		await state.exportFile('run-a', 'run');
		expect(runFileToBundle(saved[0].text).annotations).toEqual([]);
		state.shareLabels = true;
		await state.exportFile('run-a', 'run');
		expect(runFileToBundle(saved[1].text).annotations).toHaveLength(2);
	});

	it('exports the labels alone in a small file that reads back the same', async () => {
		const { store, state, saved } = setup('pool-export');
		const bundle = makeBundle(40, 'run-a');
		await store.importRun(bundle);
		await state.exportFile('run-a', 'labels');
		expect(saved[0].name).toBe('run-a.labels.jsonl');
		expect(saved[0].text.split('\n')).toHaveLength(4); // header, two labels, final newline
		const back = labelsFromFile(saved[0].text);
		expect(back.run_id).toBe('run-a');
		expect(back.annotations).toEqual((await store.exportRun('run-a')).annotations);
	});

	it('refuses a broken labels file with the line of each problem, merging nothing', async () => {
		const text = labelsToFile({
			run_id: 'run-a',
			annotations: [makeAnnotation({ run_id: 'run-a', key: 'k', annotator: 'ana' })]
		}).replace(/"label":"[^"]+"/, '"label":"great"');
		expect(() => labelsFromFile(text)).toThrow(ExchangeError);
		try {
			labelsFromFile(text);
		} catch (e) {
			expect((e as ExchangeError).problems[0]).toMatch(/^line 2: field label/);
		}
	});

	it('merges two students per annotator into one run, lists a conflict, and κ covers both', async () => {
		const teacher = setup('pool-teacher');
		const bundle = { ...makeBundle(24, 'run-a'), annotations: [] };
		await teacher.store.importRun(bundle);
		const keys = bundle.records.map((r) => r.key);
		const labelsOf = (who: string, pick: (i: number) => 'genuine_followup' | 'degenerate') =>
			labelsToFile({
				run_id: 'run-a',
				annotations: keys.map((key, i) =>
					makeAnnotation({
						run_id: 'run-a',
						key,
						annotator: who,
						label: pick(i),
						created_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`
					})
				)
			});
		const ana = labelsOf('ana', (i) => (i % 2 ? 'genuine_followup' : 'degenerate'));
		const ben = labelsOf('ben', (i) => (i % 3 ? 'genuine_followup' : 'degenerate'));
		await teacher.state.importFiles([file('ana.labels.jsonl', ana)]);
		expect(teacher.state.merged).toMatchObject({
			run_id: 'run-a',
			annotators: ['ana'],
			already: 0
		});
		expect(teacher.state.merged?.added).toHaveLength(24);
		await teacher.state.importFiles([file('ben.labels.jsonl', ben)]);
		expect(teacher.state.merged?.annotators).toEqual(['ben']);
		// The same file twice adds nothing.
		await teacher.state.importFiles([file('ana.labels.jsonl', ana)]);
		expect(teacher.state.merged).toMatchObject({ already: 24, conflicts: [] });
		expect(teacher.state.merged?.added).toEqual([]);

		const run = await teacher.store.exportRun('run-a');
		const pairs = pairwiseAgreement(
			collectLabelings(run.records, run.annotations),
			collectVerdicts(run.records, run.annotations)
		);
		const humans = pairs.find((p) => p.a === 'human:ana' && p.b === 'human:ben');
		expect(humans?.full.n).toBe(24);
		expect(Number.isFinite(humans?.full.kappa)).toBe(true);

		// A second "ana" who labelled one record otherwise: a conflict, shown, both kept.
		const other = labelsToFile({
			run_id: 'run-a',
			annotations: [
				makeAnnotation({
					run_id: 'run-a',
					key: keys[0],
					annotator: 'ana',
					label: 'genuine_followup',
					created_at: '2026-02-01T00:00:00Z'
				})
			]
		});
		await teacher.state.importFiles([file('ana2.labels.jsonl', other)]);
		expect(teacher.state.merged?.conflicts).toEqual([
			{ key: keys[0], annotator: 'ana', stored: 'degenerate', incoming: 'genuine_followup' }
		]);
		expect((await teacher.store.exportRun('run-a')).annotations).toHaveLength(49);
	});

	it('offers to merge the labels of a run file whose run is already stored', async () => {
		const teacher = setup('pool-merge-run');
		const bundle = makeBundle(6, 'run-a');
		await teacher.store.importRun({ ...bundle, annotations: [] });
		const source = setup('pool-merge-source');
		await source.store.importRun(bundle);
		source.state.shareLabels = true;
		await source.state.exportFile('run-a', 'run');
		await teacher.state.importFiles([file('student.run.jsonl', source.saved[0].text)]);
		expect(teacher.state.importFailure?.conflict).toBe('run-a');
		await teacher.state.resolveConflict('merge');
		expect(teacher.state.importFailure).toBeNull();
		expect(teacher.state.merged).toMatchObject({
			from: 'student.run.jsonl',
			annotators: ['alice', 'bob']
		});
		expect((await teacher.store.exportRun('run-a')).annotations).toHaveLength(2);
	});

	it('leaves out labels of records the run does not have, and says how many', () => {
		const a = makeAnnotation({ run_id: 'r', key: 'nope', annotator: 'ana' });
		expect(mergeLabels([], [a], new Set(['k']))).toMatchObject({ added: [], unknown: 1 });
	});
});
