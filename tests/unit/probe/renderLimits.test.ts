/**
 * Chat templates are user code: one that loops, ranges over hundreds of millions or emits 100 MB
 * per render is stopped with a message naming the limits, and every real template still renders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
	LIST_MAX_ITEMS,
	RENDER_TIME_LIMIT_MS,
	TemplateLimitError
} from '../../../src/lib/probe/renderLimits.ts';
import { validateTemplate } from '../../../src/lib/probe/template.ts';
import { cpuMs } from '../../helpers/cpuTime.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { RUNAWAY_TEMPLATES, withPrefix } from '../../helpers/runawayTemplates.ts';

describe('render limits', () => {
	for (const [name, { prefix, says }] of Object.entries(RUNAWAY_TEMPLATES)) {
		it(`stops ${name} within the time limit, naming the limits`, () => {
			const t0 = performance.now();
			let err: unknown;
			try {
				validateTemplate(withPrefix(prefix));
			} catch (e) {
				err = e;
			}
			expect(err).toBeInstanceOf(TemplateLimitError);
			const message = (err as Error).message;
			expect(message).toMatch(says);
			expect(message).toContain(`${RENDER_TIME_LIMIT_MS / 1000} s`);
			expect(message).toContain('4,000,000 characters');
			expect(performance.now() - t0).toBeLessThan(RENDER_TIME_LIMIT_MS + 1_500);
		});
	}

	it('lets every real template through, each check well under the limit', () => {
		const dir = fixturePath('templates');
		for (const file of readdirSync(dir).filter((f) => f.endsWith('.jinja'))) {
			const source = readFileSync(`${dir}/${file}`, 'utf8');
			// CPU time: how much work the check is, which a loaded machine does not change.
			const ms = cpuMs(() => validateTemplate({ source, bos_token: '<s>', eos_token: '</s>' }));
			expect(ms, file).toBeLessThan(RENDER_TIME_LIMIT_MS / 4);
		}
	});

	it('allows a range up to the list limit', () => {
		// About the list limit only: the renders take 0.35-0.4 s of CPU, and at a load average of 15
		// on 2 cores 2.4-2.6 s of wall time, past the 2 s time limit (tested above). The clock stands.
		const clock = vi.spyOn(performance, 'now').mockReturnValue(0);
		try {
			expect(() =>
				validateTemplate(withPrefix(`{% for i in range(${LIST_MAX_ITEMS}) %}{% endfor %}`))
			).not.toThrow();
			expect(() =>
				validateTemplate(withPrefix(`{% for i in range(${LIST_MAX_ITEMS + 1}) %}{% endfor %}`))
			).toThrow(TemplateLimitError);
		} finally {
			clock.mockRestore();
		}
	});
});
