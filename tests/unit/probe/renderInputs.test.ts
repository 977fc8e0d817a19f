/**
 * An input past the render cap is named, with its size; the template is not blamed. Before: a
 * 10 MB server answer or a valid 5 MB question stopped the run with "Chat template stopped: it
 * built a text of … characters … Check it for a runaway loop".
 */
import { describe, expect, it } from 'vitest';
import { RENDER_MAX_CHARS, RenderInputTooLongError } from '../../../src/lib/probe/renderLimits.ts';
import { assistantPrompt, probePrompt } from '../../../src/lib/probe/template.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';

const t = fixtureTemplate();

function thrown(fn: () => unknown): Error {
	try {
		fn();
	} catch (e) {
		return e as Error;
	}
	throw new Error('expected a throw');
}

describe('an input longer than a render may build', () => {
	it('names a 5 MB question and its size', () => {
		const question = 'x'.repeat(5_000_000);
		const err = thrown(() => assistantPrompt(t, [{ role: 'user', content: question }]));
		expect(err).toBeInstanceOf(RenderInputTooLongError);
		expect(err.message).toBe(
			'The question is 5,000,000 characters; with it the prompt would pass the 4,000,000 ' +
				'characters a chat template may build per render, so it was not rendered (the template is not at fault).'
		);
		expect(err.message).not.toContain('runaway loop');
	});

	it('names a 10 MB answer in the probe prompt', () => {
		const messages = [
			{ role: 'user' as const, content: 'What is 2+2?' },
			{ role: 'assistant' as const, content: 'y'.repeat(10_000_000) }
		];
		expect(thrown(() => probePrompt(t, messages)).message).toMatch(
			/^The answer is 10,000,000 characters/
		);
	});

	it('names a later user turn, and leaves inputs that fit to the template', () => {
		const half = 'z'.repeat(RENDER_MAX_CHARS / 2 + 1);
		const messages = [
			{ role: 'user' as const, content: 'q' },
			{ role: 'assistant' as const, content: 'a' },
			{ role: 'user' as const, content: half + half }
		];
		expect(thrown(() => assistantPrompt(t, messages)).message).toMatch(/^The user turn is /);
		expect(assistantPrompt(t, [{ role: 'user', content: 'x'.repeat(100_000) }])).toContain('x');
	});
});
