import { describe, expect, it, vi } from 'vitest';
import type { RunRow } from '../../../src/lib/db/schema.ts';
import type { AnswerRecord, ProbeRecord } from '../../../src/lib/probe/types.ts';
import { summarize } from '../../../src/lib/stats/aggregate.ts';
import { PAPER_FIGURES } from '../../../src/lib/results/paperFigures.ts';
import {
	FIRST_ROWS,
	RecordsCache,
	ResultsState,
	type ResultsOptions,
	type ResultsSource
} from '../../../src/lib/state/results.svelte.ts';
import { perturbationDeltas, runPoint } from '../../../src/lib/results/resultsData.ts';
import { tally as overall } from '../../../src/lib/stats/aggregate.ts';
import { SampleBrowser } from '../../../src/lib/state/samples.svelte.ts';
import { recordFacts } from '../../../src/lib/db/facts.ts';
import { makeAnswer, makeManifest, makeSyntheticRun } from '../../helpers/factories.ts';

function runRow(runId: string, created_at: string, dataset = 'gsm8k'): RunRow {
	const manifest = makeManifest({ run_id: runId, created_at });
	manifest.config.dataset = dataset;
	return { run_id: runId, manifest, status: 'done', created_at, updated_at: created_at };
}

function recordsOf(runId: string, seed: number): ProbeRecord[] {
	return makeSyntheticRun({
		seed,
		items: 20,
		samples: 2,
		temperatures: [0, 1],
		perturbations: ['none', 'truncate'],
		pending: 0.05
	}).map((r) => ({ ...r, run_id: runId }));
}

/** One answer per item, agreeing with the records as the pipeline writes them. */
function answersOf(records: readonly ProbeRecord[]): AnswerRecord[] {
	const byItem = new Map(records.map((r) => [r.item_id, r]));
	return [...byItem.values()].map((r) =>
		makeAnswer({ run_id: r.run_id, item_id: r.item_id, correct: r.correct })
	);
}

/** An in-memory source that records which runs' records were read (the expensive call). */
function source(runs: RunRow[], records: Map<string, ProbeRecord[]>) {
	const reads: string[] = [];
	const s: ResultsSource = {
		getRun: async (id) => runs.find((r) => r.run_id === id),
		getRecords: async (id) => {
			reads.push(id);
			return records.get(id) ?? [];
		},
		getFacts: async (id) => (records.get(id) ?? []).map(recordFacts),
		listRuns: async () => runs.slice().sort((a, b) => b.created_at.localeCompare(a.created_at)),
		firstRecords: async (id, limit) => (records.get(id) ?? []).slice(0, limit),
		getAnswers: async (id) => answersOf(records.get(id) ?? [])
	};
	return { s, reads };
}

/** A state with its own cache, so tests never see each other's reads. */
function make(source: ResultsSource, opts: ResultsOptions = {}) {
	return new ResultsState(source, { cache: new RecordsCache(), ...opts });
}

const RUNS = [
	runRow('a', '2026-05-03T00:00:00Z'),
	runRow('b', '2026-05-02T00:00:00Z'),
	runRow('c', '2026-05-01T00:00:00Z')
];
const RECORDS = new Map(RUNS.map((r, i) => [r.run_id, recordsOf(r.run_id, i + 1)]));

describe('ResultsState', () => {
	it('derives the table and the headline from the run records', async () => {
		const { s } = source(RUNS, RECORDS);
		const state = make(s, { later: () => undefined });
		await state.load('a');
		expect(state.status).toBe('ready');
		expect(state.summaries).toEqual(summarize(RECORDS.get('a') ?? []));
		expect(state.overall).toEqual(overall(RECORDS.get('a') ?? []));
		expect(state.paired).toBeNull();
		expect(state.runPoints.map((p) => p.name)).toEqual([
			'Qwen3-0.6B-q4f16_1-MLC · gsm8k, this run (T=0)'
		]);
	});

	it('paints from facts and the first rows, and reads the full records only afterwards', async () => {
		const { s, reads } = source(RUNS, RECORDS);
		const all = RECORDS.get('a') ?? [];
		let deferred: (() => void) | undefined;
		const state = make(s, { later: (work) => (deferred = work) });
		await state.load('a');
		expect(reads).toEqual([]);
		expect(state.records).toEqual(all.slice(0, FIRST_ROWS));
		expect(state.recordsComplete).toBe(false);
		expect(state.recordCount).toBe(all.length);
		deferred?.();
		await vi.waitFor(() => expect(state.recordsComplete).toBe(true));
		expect(state.records).toEqual(all);
		expect(reads).toEqual(['a']);
	});

	it('keeps the numbers and first rows when the deferred full read fails', async () => {
		const { s } = source(RUNS, RECORDS);
		const state = make(
			{ ...s, getRecords: () => Promise.reject(new Error('disk on fire')) },
			{ later: (work) => work() }
		);
		await state.load('a');
		await vi.waitFor(() => expect(state.recordsError).toBe('disk on fire'));
		expect(state.status).toBe('ready');
		expect(state.recordsComplete).toBe(false);
		expect(state.records).toHaveLength(FIRST_ROWS);
		expect(state.summaries).toEqual(summarize(RECORDS.get('a') ?? []));
	});

	it('computes paired deltas and other runs only in the deferred step', async () => {
		const { s, reads } = source(RUNS, RECORDS);
		let deferred: (() => void) | undefined;
		const state = make(s, { later: (work) => (deferred = work), otherRuns: 1 });
		await state.load('a');
		expect(state.paired).toBeNull();
		deferred?.();
		await vi.waitFor(() => expect(state.runPoints).toHaveLength(2));
		expect(state.paired).toEqual(perturbationDeltas(RECORDS.get('a') ?? [], 42));
		// Only the newest other run, as otherRuns allows, and from counts: its records are not read.
		expect(reads).toEqual(['a']);
		const b = runPoint('Qwen3-0.6B-q4f16_1-MLC · gsm8k, 2026-05-02', RECORDS.get('b') ?? []);
		expect(state.runPoints[1]).toEqual(b);
	});

	it('leaves answers cut at the token limit out of accuracy unless asked, and counts them', async () => {
		const { s } = source(RUNS, RECORDS);
		const all = RECORDS.get('a') ?? [];
		// Three items' answers stopped at answer_max_tokens; one of them was (by luck) scored correct.
		const items = [...new Set(all.map((r) => r.item_id))];
		const cut = new Set(items.slice(0, 3));
		const answers = answersOf(all).map((a) =>
			cut.has(a.item_id) ? { ...a, finish_reason: 'length' as const } : a
		);
		const state = make({ ...s, getAnswers: async () => answers }, { later: () => undefined });
		await state.load('a');
		expect(state.answersCut).toBe(3);
		expect(state.includeCutAnswers).toBe(false);
		const unscored = all.map((r) => (cut.has(r.item_id) ? { ...r, correct: null } : r));
		expect(state.summaries).toEqual(summarize(unscored));
		expect(state.overall).toEqual(overall(unscored));
		expect(state.overall.accuracy.n).toBe(overall(all).accuracy.n - 3);

		state.setIncludeCutAnswers(true);
		expect(state.summaries).toEqual(summarize(all));
		expect(state.overall).toEqual(overall(all));
	});

	it('counts no cut answer when every answer stopped on its own', async () => {
		const { s } = source(RUNS, RECORDS);
		const state = make(s, { later: () => undefined });
		await state.load('a');
		expect(state.answersCut).toBe(0);
		expect(state.summaries).toEqual(summarize(RECORDS.get('a') ?? []));
	});

	it('overlays the paper points of the run benchmark only while the toggle is on', async () => {
		const { s } = source(RUNS, RECORDS);
		const state = make(s, { later: () => undefined });
		await state.load('a');
		expect(state.overlay).toEqual([]);
		state.setShowPaper(true);
		const gsm = PAPER_FIGURES.points.filter((p) => p.benchmark === 'GSM8K');
		expect(state.overlay).toEqual(gsm);
		state.setShowPaper(false);
		expect(state.overlay).toEqual([]);
	});

	it('reports a missing run and a failing store without throwing', async () => {
		const { s } = source(RUNS, RECORDS);
		const missing = make(s, { later: () => undefined });
		await missing.load('nope');
		expect(missing.status).toBe('missing');

		const broken = make(
			{ ...s, getFacts: () => Promise.reject(new Error('disk on fire')) },
			{ later: () => undefined }
		);
		await broken.load('a');
		expect(broken.status).toBe('failed');
		expect(broken.error).toBe('disk on fire');
	});

	it('keeps the newest load when an older one resolves last', async () => {
		const { s } = source(RUNS, RECORDS);
		let release: () => void = () => undefined;
		const slow: ResultsSource = {
			...s,
			getFacts: async (id) => {
				if (id === 'a') await new Promise<void>((r) => (release = r));
				return s.getFacts(id);
			}
		};
		const state = make(slow, { later: () => undefined });
		const first = state.load('a');
		await state.load('b');
		release();
		await first;
		expect(state.run?.run_id).toBe('b');
		expect(state.summaries).toEqual(summarize(RECORDS.get('b') ?? []));
	});
});

describe('RecordsCache', () => {
	it('reuses the records of an unchanged finished run, and reads again when asked or changed', async () => {
		const { s, reads } = source(RUNS, RECORDS);
		const cache = new RecordsCache();
		const later = (work: () => void) => work();
		const first = new ResultsState(s, { later, cache });
		await first.load('a');
		await vi.waitFor(() => expect(first.recordsComplete).toBe(true));
		const again = new ResultsState(s, { later, cache });
		await again.load('a');
		expect(reads).toEqual(['a']);
		expect(again.records).toBe(first.records);
		expect(again.recordsComplete).toBe(true);

		await again.load('a', { fresh: true });
		await vi.waitFor(() => expect(reads).toEqual(['a', 'a']));

		const changed = RUNS.map((r) => (r.run_id === 'a' ? { ...r, updated_at: 'later' } : r));
		const moved = source(changed, RECORDS);
		const third = new ResultsState(moved.s, { later, cache });
		await third.load('a');
		await vi.waitFor(() => expect(moved.reads).toEqual(['a']));
	});

	it('never keeps a run that is still running', async () => {
		const running = RUNS.map((r) => ({ ...r, status: 'running' as const }));
		const { s, reads } = source(running, RECORDS);
		const cache = new RecordsCache();
		const later = (work: () => void) => work();
		const first = new ResultsState(s, { later, cache });
		await first.load('a');
		await vi.waitFor(() => expect(first.recordsComplete).toBe(true));
		const second = new ResultsState(s, { later, cache });
		await second.load('a');
		await vi.waitFor(() => expect(second.recordsComplete).toBe(true));
		expect(reads).toEqual(['a', 'a']);
	});
});

describe('SampleBrowser', () => {
	const records = RECORDS.get('a') ?? [];

	it('filters, selects and lists the selected item side by side', () => {
		const browser = new SampleBrowser(() => records);
		expect(browser.visible).toHaveLength(records.length);
		expect(browser.temperatures).toEqual([0, 1]);
		expect(browser.perturbations).toEqual(['none', 'truncate']);

		browser.setFilter({ temperature: 1, perturbation: 'truncate' });
		expect(browser.visible.every((r) => r.temperature === 1 && r.perturbation === 'truncate')).toBe(
			true
		);
		const first = browser.visible[0];
		browser.toggle(first.key);
		expect(browser.selected).toBe(first);
		expect(browser.siblings.map((r) => r.sample)).toEqual([0, 1]);
		browser.setAllConditions(true);
		expect(browser.siblings).toHaveLength(8);

		browser.toggle(first.key);
		expect(browser.selected).toBeNull();
		browser.clearFilter();
		expect(browser.visible).toHaveLength(records.length);
	});

	it('re-reads its source when the filter changes', () => {
		let current = records;
		const browser = new SampleBrowser(() => current);
		browser.setFilter({ label: 'pending' });
		const pending = records.filter((r) => r.label === null).length;
		expect(browser.visible).toHaveLength(pending);
		current = records.map((r) => ({ ...r, label: r.label ?? 'degenerate' }));
		// A plain `let` is not a signal, so only the filter change triggers the new read here.
		browser.setFilter({ label: 'pending' });
		expect(browser.visible).toHaveLength(0);
	});
});
