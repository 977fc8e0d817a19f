import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PackedRecords } from '../../../src/cli/packedRecords.ts';
import { readRun, type ReportRecord } from '../../../src/cli/readRun.ts';
import { resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { answerCutOf } from '../../../src/lib/probe/answerCut.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { makeRecord, makeRecords } from '../../helpers/factories.ts';

/** What summarize reads of a record, as readRun builds it. */
function reportOf(r: ProbeRecord, key = r.key): ReportRecord {
	return {
		run_id: r.run_id,
		key,
		item_id: r.item_id,
		temperature: r.temperature,
		perturbation: r.perturbation,
		sample: r.sample,
		label: r.label,
		verdict: r.verdict ?? null,
		label_source: r.label_source ?? null,
		correct: r.correct,
		rule_label: r.rule_label,
		judge_label: r.judge_label ?? null,
		answer_cut: answerCutOf(r),
		...(r.reference_turn === undefined
			? {}
			: { reference_grounding: r.reference_grounding ?? null })
	};
}

const VARIED: ProbeRecord[] = [
	makeRecord({ label: null, correct: null, judge_label: null }),
	makeRecord({ sample: 1, label: 'genuine_followup', verdict: 'genuine', label_source: 'judge' }),
	makeRecord({ temperature: 0.25, perturbation: 'truncate', correct: false }),
	makeRecord({ item_id: 'gsm8k-9', reference_turn: 'And then?', reference_grounding: null }),
	makeRecord({ item_id: 'gsm8k-9', sample: 3, reference_turn: 'x', reference_grounding: 'tie' }),
	makeRecord({ item_id: 'gsm8k-4', answer_finish_reason: 'length', answer: 'Janet has 16' }),
	makeRecord({ item_id: 'gsm8k-5', answer_finish_reason: 'length', answer: '' })
];

function packed(records: readonly ProbeRecord[], keepKeys = false): PackedRecords {
	const p = new PackedRecords(keepKeys);
	records.forEach((r, i) => p.set(i, reportOf(r)));
	return p;
}

describe('PackedRecords', () => {
	it('gives back every field summarize reads, absent reference grounding absent, null null', () => {
		const out = [...packed(VARIED, true)];
		expect(out).toEqual(VARIED.map((r) => reportOf(r)));
		expect(out.map((r) => r.answer_cut)).toEqual([
			null,
			null,
			null,
			null,
			null,
			'answer',
			'reasoning'
		]);
		expect('reference_grounding' in out[0]).toBe(false);
		expect(out[3]).toHaveProperty('reference_grounding', null);
	});

	it('keeps no key unless asked (summarize counts without them)', () => {
		expect([...packed(VARIED)].map((r) => r.key)).toEqual(VARIED.map(() => ''));
	});

	it('replaces a record set again at its index, keeping its place', () => {
		const p = packed(VARIED, true);
		const relabelled = makeRecord({ label: 'genuine_followup', verdict: 'genuine' });
		p.set(0, reportOf(relabelled));
		expect(p.length).toBe(VARIED.length);
		expect(p.at(0)).toEqual(reportOf(relabelled));
		expect(p.at(1)).toEqual(reportOf(VARIED[1]));
	});

	it('grows past its first columns and reads the same numbers as the records themselves', () => {
		const records = makeRecords(5_000).map((r, i) =>
			i % 7 === 0 ? { ...r, answer_finish_reason: 'length' as const, answer: '' } : r
		);
		const p = packed(records);
		expect(p.length).toBe(5_000);
		expect(resultsTable(p, [])).toEqual(resultsTable(records, []));
		expect(resultsTable(p, []).cut_reasoning_items).toBeGreaterThan(0);
	});

	it('refuses a record set beyond the end, which would leave a hole', () => {
		expect(() => new PackedRecords().set(1, reportOf(VARIED[0]))).toThrow(RangeError);
	});

	it('is read again from the start by each pass', () => {
		const p = packed(VARIED);
		expect([...p]).toHaveLength(VARIED.length);
		expect([...p]).toHaveLength(VARIED.length);
	});
});

describe('readRun holds the last write per key', () => {
	it('a pending record then its labelled copy count once, as labelled, in first-write order', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'utp-packed-'));
		const file = join(dir, 'run.jsonl');
		const pending = makeRecord({ label: null });
		const other = makeRecord({ sample: 1, label: 'degenerate' });
		const labelled = {
			...pending,
			label: 'genuine_followup' as const,
			verdict: 'genuine' as const
		};
		writeFileSync(file, [pending, other, labelled].map((r) => JSON.stringify(r) + '\n').join(''));

		const plain = await readRun(file);
		expect([...plain.records]).toEqual([reportOf(labelled, ''), reportOf(other, '')]);
		const keyed = await readRun(file, { keys: true });
		expect([...keyed.records].map((r) => r.key)).toEqual([pending.key, other.key]);
	});
});
