/**
 * The sample view beside a conversation's real next user turn: shown and marked as the human's,
 * with the judge's pairwise verdict, when a record carries one; records without it unchanged.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import SampleBrowserView from '../../../src/components/results/SampleBrowser.svelte';
import SampleDetail from '../../../src/components/results/SampleDetail.svelte';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { REFERENCE_HEADING } from '../../../src/lib/results/referenceWords.ts';
import { SampleBrowser } from '../../../src/lib/state/samples.svelte.ts';
import { makeRecord } from '../../helpers/factories.ts';

afterEach(() => cleanup());

const HUMAN = 'Thanks! And how do I keep my eyes from drying out at night?';

function conversationRecord(overrides: Partial<ProbeRecord> = {}): ProbeRecord {
	return makeRecord({
		item_id: 'oasst-ea201f57',
		task: 'none',
		question: 'How to protect my eyes when I stare at a screen all day?',
		answer: 'Follow the 20/20/20 rule and blink more.',
		perturbed_answer: 'Follow the 20/20/20 rule and blink more.',
		user_turn: 'What is the 20/20/20 rule exactly?',
		correct: null,
		reference_turn: HUMAN,
		reference_grounding: 'reference',
		...overrides
	});
}

describe('sample detail with a reference user turn', () => {
	it('shows the human turn beside the generated one, marked as the human’s', () => {
		render(SampleDetail, { record: conversationRecord() });
		const detail = screen.getByTestId('sample-detail');
		const reference = within(detail).getByTestId('reference-turn');
		expect(within(reference).getByTestId('reference-text').textContent).toBe(HUMAN);
		expect(reference.textContent).toContain(REFERENCE_HEADING);
		expect(reference.textContent).toMatch(/a human wrote this/);
		// The comparison is labelled as this app's measure, not the paper's.
		expect(within(reference).getByTestId('reference-measure-note').textContent).toMatch(
			/^This comparison is this app's measure, not the paper's/
		);
		// The generated turn is still there, and is not the human's.
		expect(within(detail).getByTestId('detail-user-turn').textContent).toBe(
			'What is the 20/20/20 rule exactly?'
		);
		expect(
			within(detail).getByTestId('detail-user-turn').closest('[data-testid="reference-turn"]')
		).toBeNull();
	});

	it.each([
		['generated', /generated turn is more grounded/],
		['reference', /human turn is more grounded/],
		['tie', /both turns are as grounded/],
		[null, /not compared/],
		[undefined, /not compared/]
	] as const)('words the judge’s verdict %s', (grounding, words) => {
		render(SampleDetail, { record: conversationRecord({ reference_grounding: grounding }) });
		const verdict = screen.getByTestId('reference-grounding');
		expect(verdict.textContent).toMatch(words);
		expect(verdict.dataset.grounding).toBe(grounding ?? 'none');
	});

	it('keeps the judge’s reply at hand when it named neither turn', () => {
		render(SampleDetail, {
			record: conversationRecord({
				reference_grounding: null,
				reference_grounding_raw: 'Both are fine, really.'
			})
		});
		expect(screen.getByTestId('reference-grounding-raw').textContent).toBe(
			'Both are fine, really.'
		);
		cleanup();
		render(SampleDetail, {
			record: conversationRecord({ reference_grounding: 'tie', reference_grounding_raw: 'TIE' })
		});
		expect(screen.queryByTestId('reference-grounding-raw')).toBeNull();
	});

	it('shows the human’s text as text, never as markup', () => {
		const hostile = '<img src=x onerror=alert(1)><script>alert(1)</script>';
		const { container } = render(SampleDetail, {
			record: conversationRecord({ reference_turn: hostile })
		});
		expect(screen.getByTestId('reference-text').textContent).toBe(hostile);
		expect(container.querySelector('img, script')).toBeNull();
	});

	it('says "(empty)" for an empty human turn rather than hiding it', () => {
		render(SampleDetail, { record: conversationRecord({ reference_turn: '' }) });
		expect(screen.getByTestId('reference-text').textContent).toBe('(empty)');
	});
});

describe('sample detail without a reference user turn', () => {
	it('keeps the generated turn where it always was, with nothing about a human turn', () => {
		const { container } = render(SampleDetail, { record: makeRecord() });
		const turn = screen.getByTestId('detail-user-turn');
		// Straight in the article after its heading, as before reference turns existed.
		expect(turn.parentElement).toBe(screen.getByTestId('sample-detail'));
		expect(turn.previousElementSibling?.textContent).toBe('Generated user turn');
		expect(container.innerHTML).not.toMatch(/reference|human/i);
		expect(container.textContent).not.toContain(REFERENCE_HEADING);
	});
});

describe('sample browser on a run with reference turns', () => {
	it('shows each picked sample’s own human turn, and none for an item without one', async () => {
		const records = [
			conversationRecord({ item_id: 'oasst-a', reference_turn: 'HUMAN-A' }),
			conversationRecord({ item_id: 'oasst-b', reference_turn: 'HUMAN-B' }),
			makeRecord({ item_id: 'gsm8k-0' })
		];
		render(SampleBrowserView, { browser: new SampleBrowser(() => records) });
		const row = (item: string) =>
			screen.getAllByTestId('sample-row').find((r) => r.dataset.key?.startsWith(`${item}|`));
		await fireEvent.click(row('oasst-b') as HTMLElement);
		expect(screen.getByTestId('reference-text').textContent).toBe('HUMAN-B');
		await fireEvent.click(row('oasst-a') as HTMLElement);
		expect(screen.getByTestId('reference-text').textContent).toBe('HUMAN-A');
		await fireEvent.click(row('gsm8k-0') as HTMLElement);
		expect(screen.getByTestId('sample-detail')).toBeTruthy();
		expect(screen.queryByTestId('reference-turn')).toBeNull();
	});

	it('puts the human turn first among an item’s samples, each saying how it compares', async () => {
		const records = [
			...(['generated', 'tie', null] as const).map((g, sample) =>
				conversationRecord({ sample, reference_grounding: g })
			),
			...[0, 1].map((sample) => makeRecord({ item_id: 'gsm8k-0', sample }))
		];
		render(SampleBrowserView, { browser: new SampleBrowser(() => records) });
		await fireEvent.click(screen.getAllByTestId('sample-row')[0]);
		const compare = screen.getByTestId('sample-compare');
		expect(within(compare).getAllByTestId('compare-reference')).toHaveLength(1);
		expect(within(compare).getByTestId('compare-reference').textContent).toContain(HUMAN);
		const verdicts = within(compare)
			.getAllByTestId('compare-grounding')
			.map((p) => p.textContent?.replace(/\s+/g, ' ').trim());
		expect(verdicts).toEqual([
			'Judge: more grounded than the human turn',
			'Judge: as grounded as the human turn',
			'Judge: not compared with the human turn'
		]);

		await fireEvent.click(screen.getAllByTestId('sample-row')[3]);
		const plain = screen.getByTestId('sample-compare');
		expect(within(plain).getAllByTestId('compare-column')).toHaveLength(2);
		expect(within(plain).queryByTestId('compare-reference')).toBeNull();
		expect(within(plain).queryByTestId('compare-grounding')).toBeNull();
	});
});
