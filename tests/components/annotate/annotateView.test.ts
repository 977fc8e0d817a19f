import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { createDB, type ProbeDB } from '../../../src/lib/db/schema.ts';
import type { Annotation } from '../../../src/lib/probe/exchange.ts';
import { labelsToFile } from '../../../src/lib/probe/labelsFile.ts';
import { LABELS, type Label, type ProbeRecord } from '../../../src/lib/probe/types.ts';
import { REFERENCE_HEADING } from '../../../src/lib/results/referenceWords.ts';
import AnnotateView from '../../../src/views/annotate/AnnotateView.svelte';
import { makeManifest, makeRecord } from '../../helpers/factories.ts';
import { renderWithServices } from '../renderWithServices.ts';

// The view reaches the database through the app's services; give it a private in-memory one.
const dbRef = { current: undefined as ProbeDB | undefined };
const renderAnnotate = (params: Record<string, string>) =>
	renderWithServices(AnnotateView, { id: 'run-a', params }, { db: dbRef.current });

const MODEL = 'Secret-Model-7B-q4f16_1-MLC';
const MACHINE_LABELS: Label[] = LABELS.filter((l) => l !== 'judge_error');
const GROUNDINGS = ['generated', 'reference', 'tie', null] as const;

/**
 * 12 turns at T=0.7, truncated; every machine-side field carries a marker the DOM must not show.
 * Even items carry the human's real next turn (a conversation dataset), odd ones none.
 */
function run(): ProbeRecord[] {
	return Array.from({ length: 12 }, (_, i) =>
		makeRecord({
			...(i % 2 === 0
				? {
						reference_turn: `HUMAN-REFERENCE-${i}`,
						reference_grounding: GROUNDINGS[(i / 2) % GROUNDINGS.length]
					}
				: {}),
			run_id: 'run-a',
			item_id: `gsm8k-${i}`,
			temperature: 0.7,
			perturbation: 'truncate',
			question: `Question number ${i}?`,
			answer: `FULL-ANSWER-${i}`,
			perturbed_answer: `Seen answer ${i}`,
			user_turn: `User turn ${i}`,
			judge_label: MACHINE_LABELS[i % MACHINE_LABELS.length],
			label: MACHINE_LABELS[i % MACHINE_LABELS.length],
			judge_rationale: `JUDGE-RATIONALE-${i}`,
			rule_label: i % 3 === 0 ? 'degenerate' : 'undecided',
			rule_reason: `RULE-REASON-${i}`
		})
	);
}

beforeEach(async () => {
	sessionStorage.clear();
	dbRef.current = createDB(`annotate-view-${Math.random()}`, {
		indexedDB: new IDBFactory(),
		IDBKeyRange
	});
	const manifest = makeManifest({ run_id: 'run-a' });
	manifest.config.generator = { id: MODEL };
	await new DexieRunStore(dbRef.current).importRun({ manifest, records: run() });
});

afterEach(() => {
	cleanup();
	dbRef.current?.close();
});

/**
 * The agreement tab bootstraps κ (1,000 resamples for every pair, on the verdicts and on the
 * categories) in jsdom: about 1–2 s alone, but 5–15 s at a load average of 16 on two cores.
 */
const AGREEMENT_TIMEOUT_MS = 30_000;

const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
	fireEvent.keyDown(window, { key, ...init });

const shownTurn = () =>
	within(screen.getByTestId('annotate-item')).getByText(/^User turn \d+$/).textContent;

async function startAs(name: string, params: Record<string, string> = {}) {
	const view = renderAnnotate(params);
	const input = await screen.findByTestId('annotator-name');
	await fireEvent.input(input, { target: { value: name } });
	await fireEvent.click(screen.getByTestId('annotate-start'));
	await screen.findByTestId('annotate-item');
	return view;
}

async function stored(): Promise<{ annotator: string; key: string; label: Label }[]> {
	return (await dbRef.current?.annotations.toArray()) ?? [];
}

async function openAgreement() {
	await fireEvent.click(screen.getByRole('link', { name: 'Agreement' }));
	return screen.findByTestId('kappa-table');
}

describe('AnnotateView, annotating', () => {
	it('hides the model, temperature, perturbation and every machine label', async () => {
		await startAs('ana');
		const text = document.body.textContent ?? '';
		expect(shownTurn()).toMatch(/^User turn \d+$/);
		expect(text).toMatch(/Seen answer \d+/); // the answer the model saw…
		expect(text).not.toMatch(/FULL-ANSWER/); // …not the original one
		const hiddens = [MODEL, '0.7', 'truncate', 'JUDGE-RATIONALE', 'RULE-REASON', 'gsm8k-'];
		for (const hidden of [...hiddens, 'HUMAN-REFERENCE', REFERENCE_HEADING]) {
			expect(text).not.toContain(hidden);
		}
		for (const label of LABELS) expect(document.body.innerHTML).not.toContain(label);
		expect(screen.queryByTestId('kappa-table')).toBeNull();
	});

	it(
		'labels with the keyboard alone, writes each label at once, and updates the κ table',
		async () => {
			await startAs('ana');
			expect(screen.getByTestId('annotate-progress').textContent).toBe('0 of 12 labeled');
			const first = shownTurn();
			await press('1');
			await press('3');
			await press('6');
			expect(screen.getByTestId('annotate-progress').textContent).toBe('3 of 12 labeled');
			expect(shownTurn()).not.toBe(first);
			await waitFor(async () => expect(await stored()).toHaveLength(3));
			expect((await stored()).map((a) => a.label)).toEqual([
				'genuine_followup',
				'assistant_restatement',
				'degenerate'
			]);

			const n = (table: HTMLElement, pair: string) =>
				table.querySelector(`[data-pair="${pair}"] [data-col="n"]`)?.textContent;
			const table = await openAgreement();
			expect(n(table, 'human:ana|judge')).toBe('3');
			expect(n(table, 'judge|rules')).toBe('12');

			await fireEvent.click(screen.getByRole('link', { name: 'Annotate' }));
			await screen.findByTestId('annotate-item');
			await press('2');
			await press('2');
			expect(n(await openAgreement(), 'human:ana|judge')).toBe('5');
		},
		AGREEMENT_TIMEOUT_MS
	);

	it('never puts the human reference turn in the page, at any step, nor in the labels file', async () => {
		const { container } = await startAs('ana');
		/** The whole document: text, hidden elements and every attribute. */
		const blind = (step: string) => {
			const html = document.body.outerHTML;
			expect(html, step).not.toContain('HUMAN-REFERENCE');
			expect(html, step).not.toContain(REFERENCE_HEADING);
			expect(html, step).not.toContain('reference-turn');
			expect(container.innerHTML, step).toContain('annotate');
		};
		blind('first item');
		await press('?');
		blind('label guide open');
		await press('?');
		await press('s');
		blind('after a skip');
		for (let i = 0; i < 12; i++) {
			blind(`item ${i + 1}`);
			await press(String((i % 6) + 1));
		}
		expect(screen.getByTestId('annotate-progress').textContent).toBe('12 of 12 labeled');
		blind('all labeled');
		await press('u');
		blind('after an undo');
		await press('1');

		await waitFor(async () => expect(await stored()).toHaveLength(12));
		const file = labelsToFile({ run_id: 'run-a', annotations: (await stored()) as Annotation[] });
		expect(file).not.toContain('HUMAN-REFERENCE');
		expect(file).not.toContain('reference');
	});

	it('ignores keys typed into a text field and held-down repeats', async () => {
		renderAnnotate({});
		const input = await screen.findByTestId('annotator-name');
		await fireEvent.keyDown(input, { key: '1' });
		await fireEvent.input(input, { target: { value: 'ana' } });
		await fireEvent.click(screen.getByTestId('annotate-start'));
		await screen.findByTestId('annotate-item');
		await press('1', { repeat: true });
		expect(screen.getByTestId('annotate-progress').textContent).toBe('0 of 12 labeled');
		expect(await stored()).toEqual([]);
	});

	it('undoes the last label with u or Ctrl+Z and shows that item again', async () => {
		await startAs('ana');
		await press('1');
		const second = shownTurn();
		await press('4');
		await press('u');
		expect(shownTurn()).toBe(second);
		expect(screen.getByTestId('annotate-progress').textContent).toBe('1 of 12 labeled');
		await waitFor(async () => expect(await stored()).toHaveLength(1));
		await press('z', { ctrlKey: true });
		expect(screen.getByTestId('annotate-progress').textContent).toBe('0 of 12 labeled');
		await waitFor(async () => expect(await stored()).toHaveLength(0));
	});

	it('skips with s and toggles the label guide with ?', async () => {
		await startAs('ana');
		const first = shownTurn();
		await press('s');
		expect(shownTurn()).not.toBe(first);
		expect(screen.queryByTestId('label-help')).toBeNull();
		await press('?');
		expect(screen.getByTestId('label-help').textContent).toContain('Previous-turn restatement');
		await press('?');
		expect(screen.queryByTestId('label-help')).toBeNull();
	});

	it('shows two annotators the same items, and never an item someone labeled again', async () => {
		const ana = await startAs('ana');
		const anaFirst = shownTurn();
		await press('1');
		const anaSecond = shownTurn();
		await press('2');
		await waitFor(async () => expect(await stored()).toHaveLength(2));
		ana.unmount();

		sessionStorage.clear(); // another person at the same computer
		const bo = await startAs('bo');
		expect(shownTurn()).toBe(anaFirst);
		bo.unmount();

		sessionStorage.clear();
		await startAs('ana');
		expect(screen.getByTestId('annotate-progress').textContent).toBe('2 of 12 labeled');
		expect([anaFirst, anaSecond]).not.toContain(shownTurn());
	});

	it('remembers the name for the browser session', async () => {
		const first = await startAs('ana');
		first.unmount();
		renderAnnotate({});
		await screen.findByTestId('annotate-item');
		expect(screen.queryByTestId('annotator-name')).toBeNull();
		expect(document.body.textContent).toContain('ana');
	});
});

describe('AnnotateView, agreement', () => {
	it(
		'opens from a link with a κ row per pair, a confusion matrix and disagreements',
		async () => {
			await dbRef.current?.annotations.bulkAdd(
				run()
					.slice(0, 6)
					.map((r, i) => ({
						run_id: 'run-a',
						key: r.key,
						annotator: 'ana',
						// ana agrees with the judge on the first four, not on the last two.
						label: i < 4 ? (r.judge_label as Label) : 'genuine_followup',
						verdict: i === 0 || i >= 4 ? 'genuine' : 'not_genuine',
						created_at: `2026-01-01T00:00:0${i}.000Z`
					})) as never
			);
			renderAnnotate({ tab: 'agreement' });
			const table = await screen.findByTestId('kappa-table');
			const pairs = [...table.querySelectorAll('[data-testid="kappa-row"]')].map((r) =>
				r.getAttribute('data-pair')
			);
			expect(pairs).toEqual([
				'human:ana|judge',
				'human:ana|hybrid',
				'human:ana|rules',
				'judge|hybrid',
				'judge|rules',
				'hybrid|rules'
			]);
			// The verdict's κ comes before the categories', and the verdict is the scale shown first.
			const heads = [...table.querySelectorAll('th')].map((h) => h.textContent ?? '');
			const at = (text: string) => heads.findIndex((h) => h.includes(text));
			expect(at('genuine vs not')).toBeGreaterThan(-1);
			expect(at('genuine vs not')).toBeLessThan(at('all labels'));
			expect(screen.getByRole('radio', { name: /genuine vs not/ })).toHaveProperty('checked', true);
			expect(screen.getByTestId('confusion-matrix')).toBeTruthy();
			const list = screen.getByTestId('disagreements');
			expect(list.textContent).toContain('2 disagreements');
			// Items 4 and 5 (meta_planning, degenerate by the judge) with the judge's reasons.
			expect(list.textContent).toContain('JUDGE-RATIONALE-4');
			expect(list.textContent).toContain('RULE-REASON-5');
			// Not blind here: item 4 shows the human's next turn and the judge's pairwise verdict beside
			// the machine labels; item 5's conversation has none.
			const card = (key: string) => list.querySelector(`article[data-key="${key}"]`) as HTMLElement;
			const [four, five] = [run()[4].key, run()[5].key].map(card);
			expect(within(four).getByTestId('reference-text').textContent).toBe('HUMAN-REFERENCE-4');
			expect(within(four).getByTestId('reference-grounding').textContent).toContain(
				'both turns are as grounded'
			);
			expect(within(five).queryByTestId('reference-turn')).toBeNull();
			expect(five.textContent).not.toContain(REFERENCE_HEADING);
			expect(screen.getByTestId('mode-advice').textContent).toMatch(/labels/);
		},
		AGREEMENT_TIMEOUT_MS
	);

	it("flags the judge's verdict conflict on a disagreement, as the sample view does", async () => {
		// Item 5: the judge wrote degenerate with the verdict genuine; ana says not genuine and
		// meta-planning on it, so the two disagree in both scales.
		const records = run();
		await dbRef.current?.records.update(
			[records[5].run_id, records[5].key] as never,
			{
				verdict: 'genuine'
			} as never
		);
		await dbRef.current?.annotations.add({
			run_id: 'run-a',
			key: records[5].key,
			annotator: 'ana',
			label: 'meta_planning',
			verdict: 'not_genuine',
			created_at: '2026-01-01T00:00:00.000Z'
		} as never);
		renderAnnotate({ tab: 'agreement' });
		await screen.findByTestId('kappa-table');
		await fireEvent.click(screen.getByRole('radio', { name: /all labels/ }));
		const list = screen.getByTestId('disagreements');
		const card = list.querySelector(`article[data-key="${records[5].key}"]`) as HTMLElement;
		expect(within(card).getByTestId('verdict-conflict').textContent).toMatch(
			/Conflict: the judge chose the failure category Degenerate short output and the verdict genuine/
		);
		expect(within(card).getByTestId('disagreement-verdict').textContent).toMatch(
			/not a genuine follow-up/
		);
	});

	it('opens labels given before verdicts were asked: categories compared, verdicts unknown', async () => {
		await dbRef.current?.annotations.bulkAdd(
			run()
				.slice(0, 3)
				.map((r, i) => ({
					run_id: 'run-a',
					key: r.key,
					annotator: 'ana',
					label: r.judge_label as Label,
					created_at: `2026-01-01T00:00:0${i}.000Z`
				})) as never
		);
		renderAnnotate({ tab: 'agreement' });
		const table = await screen.findByTestId('kappa-table');
		const row = table.querySelector('[data-pair="human:ana|judge"]') as HTMLElement;
		expect(row.querySelector('[data-col="n"]')?.textContent).toBe('3');
		expect(row.querySelector('[data-col="n-binary"]')?.textContent).toBe('0');
		expect(row.querySelector('[data-col="kappa-binary"]')?.textContent).toMatch(/^–/);
	});
});
