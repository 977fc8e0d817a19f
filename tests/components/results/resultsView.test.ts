/**
 * The results view over a real DexieRunStore in fake-indexeddb: the table and headline show what
 * summarize() computes, the four charts are built (Chart.js replaced by a recorder: jsdom has no
 * canvas), the paper overlay reaches the charts, and every chart is destroyed on unmount.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { createDB, type ProbeDB } from '../../../src/lib/db/schema.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { summarize } from '../../../src/lib/stats/aggregate.ts';
import { textChangeRates } from '../../../src/lib/results/resultsData.ts';
import { conditionSentence } from '../../../src/lib/results/plainWords.ts';
import { tally as overall } from '../../../src/lib/stats/aggregate.ts';
import ResultsView from '../../../src/views/results/ResultsView.svelte';
import { makeAnswer, makeManifest, makeRecord, makeSyntheticRun } from '../../helpers/factories.ts';
import { DATASETS } from '../../../src/lib/datasets/registry.ts';
import { renderWithServices } from '../renderWithServices.ts';
import { rated } from '../../helpers/rate.ts';
import { NO_RATE, NO_RATE_REASON } from '../../../src/lib/results/plainWords.ts';

const charts = vi.hoisted(() => ({
	live: [] as { config: { data: { datasets: { label?: string }[] } }; destroyed: boolean }[]
}));
vi.mock('chart.js/auto', () => ({
	default: class {
		destroyed = false;
		config: unknown;
		constructor(_canvas: unknown, config: unknown) {
			this.config = config;
			charts.live.push(this as never);
		}
		destroy() {
			this.destroyed = true;
		}
	}
}));

const dbRef = { current: undefined as ProbeDB | undefined };
const renderResults = (id: string) =>
	renderWithServices(ResultsView, { id, params: {} }, { db: dbRef.current });

let records: ProbeRecord[] = [];

beforeEach(async () => {
	charts.live = [];
	dbRef.current = createDB(`results-view-${Math.random()}`, {
		indexedDB: new IDBFactory(),
		IDBKeyRange
	});
	records = makeSyntheticRun({
		seed: 21,
		items: 30,
		samples: 2,
		temperatures: [0, 1],
		perturbations: ['none', 'truncate'],
		pending: 0.1
	}).map((r) => ({ ...r, run_id: 'run-a' }));
	// Make sure judge errors and unscored answers are there to be counted.
	records.push(
		makeRecord({ run_id: 'run-a', item_id: 'odd', label: 'judge_error', correct: null })
	);
	await new DexieRunStore(dbRef.current).importRun({
		manifest: makeManifest({ run_id: 'run-a' }),
		records
	});
});

afterEach(() => {
	cleanup();
	dbRef.current?.close();
});

const pct = (p: number) => (Number.isNaN(p) ? '—' : `${(p * 100).toFixed(1)}%`);
const ci = (r: { p: number; lo: number; hi: number }) =>
	Number.isNaN(r.p) ? '—' : `${(r.lo * 100).toFixed(1)}–${(r.hi * 100).toFixed(1)}%`;

describe('results view', () => {
	it('shows per-condition numbers exactly as summarize() computes them', async () => {
		renderResults('run-a');
		const table = await screen.findByTestId('results-table');
		const expected = summarize(records);
		const rows = within(table).getAllByTestId('results-row');
		expect(rows).toHaveLength(expected.length);
		for (const [i, row] of rows.entries()) {
			const s = expected[i];
			const cells = [...row.querySelectorAll('td')].map((td) => td.textContent?.trim());
			expect(cells).toEqual([
				String(s.temperature),
				s.perturbation,
				pct(s.accuracy.p),
				ci(s.accuracy),
				pct(rated(s.followup).p),
				ci(rated(s.followup)),
				expect.stringMatching(/^More/)
			]);
			// The counts that should be zero are in the row's fold, each under its name.
			const more = within(row).getByRole('button', { name: /^More/ });
			expect(more.getAttribute('aria-expanded')).toBe('false');
			await fireEvent.click(more);
			expect(more.getAttribute('aria-expanded')).toBe('true');
			const fold = document.getElementById(more.getAttribute('aria-controls') ?? '');
			const named = [...(fold?.querySelectorAll('dl > div') ?? [])].map((d) => [
				d.querySelector('dt')?.textContent?.trim(),
				d.querySelector('dd')?.textContent?.trim()
			]);
			expect(named).toEqual([
				['Turns', String(s.n)],
				['Items', `${s.accuracy.k}/${s.accuracy.n}`],
				['Genuine / with verdict', `${rated(s.followup).k}/${rated(s.followup).n}`],
				['Undecided', String(s.undecided)],
				['Judge errors', String(s.judge_errors)],
				['Verdict conflicts', String(s.verdict_conflicts)],
				['Pending', String(s.pending)],
				['Cut in reasoning', String(s.cut_reasoning)]
			]);
			// A count that is not zero says so on the folded row's button.
			expect(more.classList.contains('warn')).toBe(
				s.undecided + s.judge_errors + s.verdict_conflicts + s.pending + s.cut_reasoning > 0
			);
		}
		const o = overall(records);
		expect(screen.getByTestId('followup-rate').textContent).toBe(pct(rated(o.followup).p));
		expect(screen.getByTestId('accuracy-rate').textContent).toBe(pct(o.accuracy.p));
		expect(o.pending).toBeGreaterThan(0);
		expect(screen.getByTestId('counts').textContent).toContain(`${o.pending} pending`);
		expect(screen.getByTestId('counts').textContent).toContain(`${o.judge_errors} judge error`);
	});

	it('builds the four charts, redraws with the paper overlay, destroys them on unmount', async () => {
		const view = renderResults('run-a');
		await screen.findByTestId('results-table');
		for (const id of ['chart-followup-temp', 'chart-labels', 'chart-acc-followup', 'chart-paired'])
			expect(screen.getByTestId(id).querySelector('canvas')).toBeTruthy();
		await waitFor(() => expect(charts.live.length).toBeGreaterThanOrEqual(4));
		const labels = () =>
			charts.live
				.filter((c) => !c.destroyed)
				.flatMap((c) => c.config.data.datasets.map((d) => d.label ?? ''));
		expect(labels().some((l) => l.startsWith('Paper:'))).toBe(false);

		await fireEvent.click(screen.getByTestId('paper-overlay-toggle'));
		await waitFor(() => expect(labels().some((l) => l.startsWith('Paper:'))).toBe(true));
		// The demo run's dataset is gsm8k: only GSM8K points are drawn.
		expect(
			labels()
				.filter((l) => l.startsWith('Paper:'))
				.every((l) => l.includes('GSM8K'))
		).toBe(true);
		expect(screen.getByText(/arXiv:2604\.02315/)).toBeTruthy();
		// The post-training table's GSM8K accuracies (base, SFT, RL), each listed with its follow-up
		// rates on the other benchmarks, since the table has no GSM8K follow-up rate to draw.
		const accuracyOnly = screen.getAllByTestId('paper-accuracy-only').map((e) => e.textContent);
		expect(accuracyOnly).toHaveLength(3);
		expect(accuracyOnly[0]).toMatch(
			/Qwen3\.5-2B \(base\)\s+GSM8K accuracy 62\.9%.*IFBench 1\.0%, GPQA-Diamond 2\.0%/s
		);
		expect(accuracyOnly[1]).toMatch(/Qwen3\.5-2B \(SFT\)\s+GSM8K accuracy 40\.3%/);

		// The generator is none of the paper's models: every number is context, none compared.
		expect(screen.getByTestId('paper-no-own').textContent).toContain('Qwen3-0.6B-q4f16_1-MLC');
		expect(screen.queryByTestId('paper-compare')).toBeNull();
		const context = within(screen.getByTestId('paper-context')).getAllByRole('row').slice(1);
		expect(context.length).toBeGreaterThan(0);
		expect(context.every((r) => r.getAttribute('data-verdict') === 'other_model')).toBe(true);

		view.unmount();
		expect(charts.live.every((c) => c.destroyed)).toBe(true);
	});

	it('compares a Qwen3.5-0.8B run with Qwen3.5-0.8B’s numbers only, the rest as context', async () => {
		const base = makeManifest().config;
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: makeManifest({
				run_id: 'run-q',
				config: {
					...base,
					run_id: 'run-q',
					dataset: 'gsm8k',
					generator: { id: 'Qwen3.5-0.8B-q4f16_1-MLC', template_repo: 'Qwen/Qwen3.5-0.8B' }
				}
			}),
			records: records.map((r) => ({ ...r, run_id: 'run-q' }))
		});
		renderResults('run-q');
		await screen.findByTestId('results-table');
		await fireEvent.click(screen.getByTestId('paper-overlay-toggle'));
		// Beside the overlay: this run's n and interval at the paper point's condition, and whether
		// the run can tell them apart (the paper's number inside its 95% interval or not).
		const at0 = summarize(records).find((s) => s.temperature === 0 && s.perturbation === 'none');
		const f = at0?.followup;
		if (!f) throw new Error('the synthetic run has T=0 · none');
		const rows = within(await screen.findByTestId('paper-compare'))
			.getAllByRole('row')
			.slice(1);
		expect(rows.every((r) => r.textContent?.startsWith('Qwen3.5-0.8B · '))).toBe(true);
		const row = rows.find((r) => r.textContent?.includes('Qwen3.5-0.8B · T=0 · none · follow-up'));
		expect(row?.textContent).toContain(`(${f.k}/${f.n}, ${ci(f)})`);
		expect(row?.textContent).toContain('Abstract');
		const inside = f.lo <= 0.01 && 0.01 <= f.hi;
		expect(row?.getAttribute('data-verdict')).toBe(inside ? 'indistinguishable' : 'differs');
		expect(row?.textContent).toContain(inside ? 'cannot distinguish' : 'outside');
		const context = within(screen.getByTestId('paper-context')).getAllByRole('row').slice(1);
		expect(context.some((r) => r.textContent?.startsWith('Qwen3.5-397B-A17B'))).toBe(true);
		expect(context.some((r) => r.textContent?.includes('cannot distinguish'))).toBe(false);
		expect(screen.queryByTestId('paper-no-own')).toBeNull();
	});

	it('draws no paper number on a run of a dataset the paper has none for, and says why', async () => {
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: makeManifest({
				run_id: 'run-demo',
				config: { ...makeManifest().config, run_id: 'run-demo', dataset: 'demo' }
			}),
			records: records.map((r) => ({ ...r, run_id: 'run-demo' }))
		});
		renderResults('run-demo');
		await screen.findByTestId('results-table');
		await fireEvent.click(screen.getByTestId('paper-overlay-toggle'));
		const none = await screen.findByTestId('paper-none');
		expect(none.textContent).toContain("This app holds none of the paper's numbers for “demo”");
		expect(none.textContent).toContain('GSM8K, GPQA-Diamond, IFBench');
		expect(screen.queryByTestId('paper-compare')).toBeNull();
		const labels = charts.live
			.filter((c) => !c.destroyed)
			.flatMap((c) => c.config.data.datasets.map((d) => d.label ?? ''));
		expect(labels.some((l) => l.startsWith('Paper:'))).toBe(false);
	});

	it('shows the text-change rate per perturbation once the user turns are read', async () => {
		renderResults('run-a');
		const table = await screen.findByTestId('text-change');
		const expected = textChangeRates(records);
		expect(expected.length).toBeGreaterThan(0);
		const rows = within(table).getAllByRole('row').slice(1);
		expect(rows.map((r) => r.querySelector('td')?.textContent)).toEqual(
			expected.map((e) => `T=${e.temperature} · ${e.perturbation}`)
		);
		expect(rows[0].textContent).toContain(`${expected[0].changed.k}/${expected[0].changed.n}`);
		// A GSM8K run: the paper's 99.0% was measured on IFBench, so it is not shown here.
		expect(screen.queryByTestId('text-change-paper')).toBeNull();
		expect(table.textContent).not.toContain('99.0%');
	});

	it('shows the paper’s 99.0% text-change rate beside an IFBench run with its models', async () => {
		const appended = records.map((r) =>
			r.perturbation === 'truncate' ? { ...r, perturbation: 'append' as const } : r
		);
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: makeManifest({
				run_id: 'run-if',
				config: {
					...makeManifest().config,
					run_id: 'run-if',
					dataset: 'ifbench',
					perturbations: ['none', 'append']
				}
			}),
			records: appended.map((r) => ({ ...r, run_id: 'run-if' }))
		});
		renderResults('run-if');
		const paper = await screen.findByTestId('text-change-paper');
		expect(paper.textContent).toContain(
			'99.0% under append on IFBench, for gpt-oss-120B and GLM-4.7'
		);
		const appendRow = within(screen.getByTestId('text-change'))
			.getAllByRole('row')
			.find((r) => r.textContent?.includes('· append'));
		expect(appendRow?.textContent).toContain('99.0%');
	});

	it('says each result in a plain sentence, and on a run with only "none" what to tick instead of empty axes', async () => {
		const plain = records.filter((r) => r.perturbation === 'none');
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: makeManifest({
				run_id: 'run-none',
				config: { ...makeManifest().config, run_id: 'run-none', perturbations: ['none'] }
			}),
			records: plain.map((r) => ({ ...r, run_id: 'run-none' }))
		});
		renderResults('run-none');
		const sentences = await screen.findByTestId('condition-sentences');
		const lines = within(sentences)
			.getAllByRole('listitem')
			.map((li) => li.textContent ?? '');
		expect(lines).toEqual(summarize(plain).map((s) => conditionSentence(s)));
		expect(lines[0]).toMatch(/^At T=0, unperturbed: \d+% genuine follow-ups/);
		expect(screen.getByTestId('overall-sentence').textContent).toMatch(/^Over the whole run: /);
		const none = await screen.findByTestId('chart-paired-none');
		expect(none.textContent).toMatch(/Tick “truncate” or “append”/);
		expect(screen.queryByTestId('chart-paired')).toBeNull();
		expect((await screen.findByTestId('text-change-none')).textContent).toMatch(
			/“truncate” or “append” ticked/
		);
		// "What this measures" opens in place (a dialog), never leaving the run for the home page.
		const why = screen.getByTestId('why-link');
		expect(why.tagName).toBe('BUTTON');
		expect(why.getAttribute('aria-haspopup')).toBe('dialog');
	});

	it('lists the samples of the run', async () => {
		renderResults('run-a');
		await screen.findByTestId('results-table');
		expect(screen.getAllByTestId('sample-row').length).toBeGreaterThan(0);
		// The first rows paint with the numbers; the rest are read after the first paint.
		await waitFor(() =>
			expect(screen.getByTestId('sample-count').textContent).toBe(
				`${records.length} of ${records.length}`
			)
		);
		expect(screen.queryByTestId('samples-partial')).toBeNull();
	});

	it('names other runs it cannot place on the accuracy chart', async () => {
		// Nothing judged yet: it has no follow-up rate to place it by.
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: makeManifest({ run_id: 'run-b', created_at: '2026-01-01T00:00:00.000Z' }),
			records: records.map((r) => ({
				...r,
				run_id: 'run-b',
				label: null,
				label_source: null,
				verdict: null
			}))
		});
		renderResults('run-a');
		const chart = await screen.findByTestId('chart-acc-followup');
		await waitFor(() => expect(chart.textContent).toContain('Not drawn'));
		expect(chart.textContent).toContain('gsm8k, 2026-01-01 (T=0)');
	});

	it('shows undecided turns and cut-while-reasoning probes, leaves them out, and counts them on request', async () => {
		// A rules-only run: two items answered, one cut while still reasoning (nothing visible).
		const turn = (item_id: string, sample: number, label: ProbeRecord['label']) =>
			makeRecord({
				run_id: 'run-r',
				key: `${item_id}|0|none|${sample}`,
				item_id,
				sample,
				label,
				label_source: 'rules',
				rule_label: label ?? 'undecided'
			});
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: makeManifest({ run_id: 'run-r' }),
			records: [
				turn('a', 0, 'degenerate'),
				turn('a', 1, 'undecided'),
				turn('b', 0, 'undecided'),
				turn('c', 0, 'degenerate'),
				turn('c', 1, 'degenerate')
			],
			answers: [
				makeAnswer({ run_id: 'run-r', item_id: 'a' }),
				makeAnswer({ run_id: 'run-r', item_id: 'b' }),
				makeAnswer({ run_id: 'run-r', item_id: 'c', answer: '', finish_reason: 'length' })
			]
		});
		renderResults('run-r');
		const counts = await screen.findByTestId('counts');
		expect(screen.getByTestId('undecided').textContent).toContain('2 undecided');
		expect(counts.textContent).toContain('2 left out (answer cut while reasoning)');
		// Rules only, turns undecided: no rate (it would be 0 by construction), one sentence why, and
		// the shares of what the rules saw, without the cut-in-reasoning turns.
		expect(screen.getByTestId('followup-rate').textContent).toBe('no rate');
		expect(screen.getByTestId('no-rate').textContent).toContain(NO_RATE_REASON);
		expect(screen.getByTestId('no-rate').textContent).toContain(
			'Of 3 labelled turns, 67% undecided, 33% Degenerate short output.'
		);
		expect(screen.queryByText(/\d+ of \d+ turns? with a verdict/)).toBeNull();
		expect(within(screen.getByTestId('results-table')).getAllByText(NO_RATE)).toHaveLength(1);
		const note = screen.getByTestId('cut-reasoning');
		expect(note.textContent).toContain('left out of follow-up rates');
		await fireEvent.click(within(note).getByTestId('include-cut-reasoning'));
		await waitFor(() =>
			expect(screen.getByTestId('no-rate').textContent).toContain(
				'Of 5 labelled turns, 60% Degenerate short output, 40% undecided.'
			)
		);
		expect(screen.getByTestId('counts').textContent).not.toContain('left out');
	});

	it("shows the reference share as this app's measure, ties apart, unperturbed only", async () => {
		const groundings = ['generated', 'tie', 'reference', 'reference', null] as const;
		const threads = groundings.map((g, i) =>
			makeRecord({
				run_id: 'run-ref',
				key: `t${i}|0|none|0`,
				item_id: `t${i}`,
				reference_turn: 'Does that count the suburbs?',
				reference_grounding: g
			})
		);
		// A stored perturbed comparison (older runs made them) is left out, never counted.
		const truncated = makeRecord({
			run_id: 'run-ref',
			key: 't0|0|truncate|0',
			item_id: 't0',
			perturbation: 'truncate',
			reference_turn: 'Does that count the suburbs?',
			reference_grounding: 'generated'
		});
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: makeManifest({ run_id: 'run-ref' }),
			records: [...threads, truncated]
		});
		renderResults('run-ref');
		const line = await screen.findByTestId('reference-share');
		expect(line.textContent?.replace(/\s+/g, ' ')).toContain(
			"By the judge, 25.0% of generated user turns were more grounded in the answer than the human's (95% CI 4.6–69.9%), 25.0% as grounded (a tie, 95% CI 4.6–69.9%), and 2 less grounded: 4 compared · 1 not compared · 1 perturbed record left out: the human answered the unperturbed answer."
		);
		expect(screen.getByTestId('reference-measure').textContent).toBe(
			"this app's measure, not the paper's"
		);
		cleanup();
		renderResults('run-a');
		await screen.findByTestId('results-table');
		expect(screen.queryByTestId('reference-share')).toBeNull();
	});

	it('says when the run is not in this browser', async () => {
		renderResults('elsewhere');
		expect((await screen.findByRole('alert')).textContent).toContain('No run “elsewhere”');
	});

	it('states how the dataset was prepared (GPQA option shuffle) when the manifest says it', async () => {
		const base = makeManifest({ run_id: 'run-g' });
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: {
				...base,
				config: {
					...base.config,
					dataset: 'gpqa_diamond',
					dataset_note: DATASETS.gpqa_diamond.note
				}
			},
			records: records.map((r) => ({ ...r, run_id: 'run-g' }))
		});
		renderResults('run-g');
		const note = await screen.findByTestId('dataset-note');
		expect(note.textContent).toMatch(/GPQA options are shuffled per item/);
		cleanup();
		renderResults('run-a');
		await screen.findByTestId('results-table');
		expect(screen.queryByTestId('dataset-note')).toBeNull();
	});

	it('says where the NLTK data that scored the run came from, or why it was missing', async () => {
		const base = makeManifest({ run_id: 'run-n' });
		await new DexieRunStore(dbRef.current as ProbeDB).importRun({
			manifest: { ...base, nlp_data: 'not loaded: raw.githubusercontent.com could not be reached' },
			records: records.map((r) => ({ ...r, run_id: 'run-n' }))
		});
		renderResults('run-n');
		const note = await screen.findByTestId('nlp-data');
		expect(note.textContent).toMatch(
			/NLTK's English data for scoring: not loaded: raw\.githubusercontent\.com could not be reached/
		);
		cleanup();
		renderResults('run-a');
		await screen.findByTestId('results-table');
		expect(screen.queryByTestId('nlp-data')).toBeNull();
	});
});
