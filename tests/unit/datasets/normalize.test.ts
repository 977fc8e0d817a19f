import { describe, expect, it } from 'vitest';
import { normalizeGsm8kRow } from '../../../src/lib/datasets/tasks/gsm8k.ts';
import { normalizeIfevalRow } from '../../../src/lib/datasets/tasks/ifeval.ts';
import { normalizeOasstRow } from '../../../src/lib/datasets/tasks/conversations.ts';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import {
	IFEVAL_KWARG_UNION,
	gsm8kLines,
	ifevalLines,
	ifevalParquetRow,
	oasstMessageRows,
	oasstRootTexts
} from './hfFixtureRows.ts';

describe('normalizeGsm8kRow', () => {
	it('maps all 1,319 test rows to gsm8k items keyed by row index, gold kept whole', () => {
		const lines = gsm8kLines();
		expect(lines).toHaveLength(1319);
		const items = lines.map((row, i) => normalizeGsm8kRow({ ...row }, i));
		expect(items[0]).toStrictEqual({
			id: 'gsm8k-test-0',
			task: 'gsm8k',
			prompt: lines[0].question,
			gold: lines[0].answer
		});
		expect(items[1318].id).toBe('gsm8k-test-1318');
		expect(items.every((it, i) => it.prompt === lines[i].question)).toBe(true);
		expect(items.every((it) => /#### \S+$/.test(it.gold ?? ''))).toBe(true);
		expect(new Set(items.map((it) => it.id)).size).toBe(1319);
	});

	it('throws a DatasetError naming the row when a field is missing', () => {
		expect(() => normalizeGsm8kRow({ question: 'q' }, 7)).toThrow(DatasetError);
		expect(() => normalizeGsm8kRow({ question: 'q' }, 7)).toThrow("gsm8k row 7: 'answer'");
	});
});

describe('normalizeIfevalRow', () => {
	it('the hard-coded parquet union covers every kwarg name in the fixture', () => {
		const names = new Set(ifevalLines().flatMap((l) => l.kwargs.flatMap((k) => Object.keys(k))));
		expect([...names].sort()).toEqual([...IFEVAL_KWARG_UNION].sort());
	});

	it('recovers the original kwargs exactly for all 541 prompts from null-padded parquet rows', () => {
		const lines = ifevalLines();
		expect(lines).toHaveLength(541);
		for (const line of lines) {
			const row = ifevalParquetRow(line);
			const item = normalizeIfevalRow(row);
			expect(item).toStrictEqual({
				id: `ifeval-${line.key}`,
				task: 'ifeval',
				prompt: line.prompt,
				instruction_ids: line.instruction_id_list,
				kwargs: line.kwargs
			});
		}
	});

	it('pads really are null-filled: a no-kwarg instruction arrives with 24 null keys and leaves empty', () => {
		const line = ifevalLines().find((l) => l.key === 1001);
		expect(line).toBeDefined();
		const row = ifevalParquetRow(line as NonNullable<typeof line>);
		const padded = (row.kwargs as Record<string, unknown>[])[0];
		expect(Object.keys(padded)).toHaveLength(24);
		expect(Object.values(padded).every((v) => v === null)).toBe(true);
		expect(normalizeIfevalRow(row).kwargs).toStrictEqual([{}]);
	});

	it('keeps falsy non-null values such as 0 and empty strings', () => {
		const row = {
			key: 1,
			prompt: 'p',
			instruction_id_list: ['x'],
			kwargs: [{ a: 0, b: '', c: false, d: null }]
		};
		expect(normalizeIfevalRow(row).kwargs).toStrictEqual([{ a: 0, b: '', c: false }]);
	});

	it('treats a whole null kwargs struct as no kwargs', () => {
		const row = { key: 2, prompt: 'p', instruction_id_list: ['x'], kwargs: [null] };
		expect(normalizeIfevalRow(row).kwargs).toStrictEqual([{}]);
	});

	it.each([
		[{ prompt: 'p', instruction_id_list: [], kwargs: [] }, "'key'"],
		[{ key: 3, prompt: 'p', instruction_id_list: ['a', 'b'], kwargs: [{}] }, 'as long as'],
		[{ key: 4, prompt: 'p', instruction_id_list: 'a', kwargs: [] }, 'list of strings'],
		[{ key: 5, instruction_id_list: [], kwargs: [] }, "ifeval key 5: 'prompt'"]
	])('rejects a malformed row (%#) with a DatasetError', (row, message) => {
		expect(() => normalizeIfevalRow(row)).toThrow(message);
	});
});

describe('normalizeOasstRow', () => {
	it('keeps exactly the 100 root prompts of 1,167 message rows, as task none', () => {
		const rows = oasstMessageRows();
		expect(rows).toHaveLength(1167);
		const items = rows.map(normalizeOasstRow).filter((it) => it !== null);
		expect(items.map((it) => it.prompt)).toEqual(oasstRootTexts());
		expect(items.every((it) => it.task === 'none' && it.id.startsWith('oasst-'))).toBe(true);
		expect(items[0].id).toBe(`oasst-${rows[0].message_id}`);
	});

	it.each([
		['deleted', { deleted: true }],
		['rejected by reviewers', { review_result: false }],
		['a reply', { parent_id: 'abc' }],
		['an assistant message', { role: 'assistant' }],
		['blank', { text: '  \n' }]
	])('skips a %s message', (_what, change) => {
		const root = { ...oasstMessageRows()[0], ...change };
		expect(normalizeOasstRow(root)).toBeNull();
	});

	it('keeps a root whose review is still pending (review_result null)', () => {
		const root = { ...oasstMessageRows()[0], review_result: null };
		expect(normalizeOasstRow(root)?.prompt).toBe(oasstRootTexts()[0]);
	});

	it('throws on a row without message_id', () => {
		expect(() => normalizeOasstRow({ text: 'hi', role: 'prompter' })).toThrow(DatasetError);
	});
});
