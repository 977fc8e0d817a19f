/**
 * A chosen template file that never ends (a 3000 × 3000 loop) checked in a real worker thread with
 * the real check (the CLI's checker, as the browser's runs the same checkReply in a Web Worker):
 * left alone it is stopped at the time limit, a real fault with the limits named; the caller's
 * signal reaches the worker through loadTemplate, so cancelling ends it at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { workerTemplateChecker } from '../../../src/cli/templateChecker.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { RENDER_TIME_LIMIT_MS } from '../../../src/lib/probe/renderLimits.ts';
import { useTemplateChecker } from '../../../src/lib/probe/templateChecker.ts';
import { loadTemplate, type TemplateSpec } from '../../../src/lib/setup/templates.ts';
import { RUNAWAY_TEMPLATES, withPrefix } from '../../helpers/runawayTemplates.ts';

const LOOP = RUNAWAY_TEMPLATES['a loop of 3000 × 3000'];
const FILE: TemplateSpec = {
	kind: 'file',
	name: 'loop.jinja',
	text: withPrefix(LOOP.prefix).source,
	eos_token: '<|im_end|>'
};
const deps = (signal?: AbortSignal) => ({
	fetch: () => Promise.reject(new Error('no network in this test')),
	signal
});

afterEach(() => useTemplateChecker(null));

describe('checking a template that never ends', () => {
	it('stops it at the time limit and says so', async () => {
		useTemplateChecker(workerTemplateChecker());
		const t0 = performance.now();
		await expect(loadTemplate(FILE, deps())).rejects.toThrow(LOOP.says);
		expect(performance.now() - t0).toBeGreaterThanOrEqual(RENDER_TIME_LIMIT_MS);
	}, 30_000);

	it('ends at once when the caller cancels', async () => {
		useTemplateChecker(workerTemplateChecker());
		const ctl = new AbortController();
		const loading = loadTemplate(FILE, deps(ctl.signal));
		// Past the worker's start-up, while the template renders.
		const ABORT_AT_MS = 1_200;
		let abortedAt = Infinity;
		setTimeout(() => {
			abortedAt = performance.now();
			ctl.abort();
		}, ABORT_AT_MS);
		await expect(loading).rejects.toBeInstanceOf(AbortError);
		// Timed from the abort, not from the start: on a loaded host the timer itself fires late.
		// A cancel that waited for the render would end at the limit, this much after the abort.
		expect(performance.now() - abortedAt).toBeLessThan(RENDER_TIME_LIMIT_MS - ABORT_AT_MS);
	}, 30_000);
});
