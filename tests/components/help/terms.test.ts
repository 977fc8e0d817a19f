/** Explanations on demand, and the label definitions the results page shows. */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import Term from '../../../src/components/help/Term.svelte';
import LabelDefinitions from '../../../src/components/results/LabelDefinitions.svelte';
import { GLOSSARY } from '../../../src/lib/display/glossary.ts';
import { JUDGE_PROMPT } from '../../../src/lib/probe/judge.ts';
import { LABEL_INFO } from '../../../src/lib/probe/labels.ts';

afterEach(() => cleanup());

describe('Term', () => {
	it('shows its one line when pressed and hides it on Escape or a second press', async () => {
		render(Term, { term: 'Wilson' });
		const button = screen.getByRole('button', { name: 'What is Wilson?' });
		expect(button.getAttribute('aria-expanded')).toBe('false');
		expect(button.hasAttribute('title')).toBe(false);
		expect(screen.queryByRole('note')).toBeNull();

		await fireEvent.click(button);
		expect(button.getAttribute('aria-expanded')).toBe('true');
		const note = screen.getByRole('note');
		expect(note.textContent).toBe(GLOSSARY.Wilson);
		expect(button.getAttribute('aria-controls')).toBe(note.id);

		await fireEvent.keyDown(button, { key: 'Escape' });
		expect(screen.queryByRole('note')).toBeNull();
		await fireEvent.click(button);
		await fireEvent.click(button);
		expect(screen.queryByRole('note')).toBeNull();
	});

	it('has one line for every term the issue names', () => {
		const terms = [
			'q4f32',
			'shader-f16',
			'VRAM',
			'samples per condition',
			'hybrid',
			'thinking',
			'Wilson',
			'cluster bootstrap',
			'pp',
			'κ'
		];
		for (const t of terms) {
			const line = (GLOSSARY as Record<string, string>)[t];
			expect(line, t).toBeTruthy();
			expect(line.includes('\n'), t).toBe(false);
		}
	});
});

describe('LabelDefinitions', () => {
	it('defines the six labels with the words the judge prompt is built from', () => {
		render(LabelDefinitions);
		const terms = [...document.querySelectorAll('dt')];
		expect(terms.map((t) => t.getAttribute('data-label'))).toEqual([
			'genuine_followup',
			'prompt_restatement',
			'assistant_restatement',
			'malformed_artifact',
			'meta_planning',
			'degenerate'
		]);
		for (const dt of terms) {
			const info = LABEL_INFO[dt.getAttribute('data-label') as keyof typeof LABEL_INFO];
			expect(dt.textContent).toBe(info.title);
			const dd = dt.nextElementSibling;
			expect(dd?.textContent).toBe(info.definition);
			// The prompt defuses chat-template markup with zero-width spaces; the words are the same.
			const prompt = (JUDGE_PROMPT.system + JUDGE_PROMPT.template).replaceAll('\u200b', '');
			expect(prompt).toContain(`${info.label} (${info.title}): ${info.definition}`);
		}
	});
});
