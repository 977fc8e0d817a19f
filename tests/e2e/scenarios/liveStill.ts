/**
 * While a run streams, the page draws only when the run view commits: no CSS animation or
 * transition runs (an endless one has Chromium draw 60 frames a second for the whole run; on the
 * bench's server run the blinking cursor and the progress bar's transition took the GPU process
 * from 0.3–0.4 s of CPU to 0.6–0.8 s). The streaming cursor is still shown, steady.
 */
import { waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { startFreshRun } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';

/** Slow enough that turns stream for seconds. */
const TOKEN_DELAY_MS = 60;
/** Samples, 150 ms apart, until a turn streamed and the bar moved while watched: at most this many. */
const MAX_SAMPLES = 80;

export const liveStill: Scenario<E2EContext> = {
	id: 'live-still',
	title: 'a streaming run animates nothing between commits, and still shows its cursor',
	timeoutMs: 90_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const { runId, planned } = await startFreshRun(ctx, page, { tokenDelayMs: TOKEN_DELAY_MS });
		await page.locator('.streaming').first().waitFor({ state: 'visible', timeout: 30_000 });

		let streamingSeen = 0;
		let progressMoved = false;
		let firstProgress: string | null = null;
		let samples = 0;
		for (; samples < MAX_SAMPLES && !(streamingSeen > 0 && progressMoved); samples++) {
			const s = await page.evaluate(() => {
				const cursor = document.querySelector('.streaming');
				return {
					animations: document
						.getAnimations()
						.map(
							(a) =>
								`${a.constructor.name} on ${(a.effect as KeyframeEffect | null)?.target?.className ?? '?'}`
						),
					cursor: cursor ? getComputedStyle(cursor, '::after').content : null,
					progress:
						document.querySelector('[data-testid="run-progress"] .fill')?.getAttribute('style') ??
						null
				};
			});
			check(
				s.animations.length === 0,
				`mid-run (sample ${samples + 1}): the page runs ${s.animations.join(', ')}`
			);
			if (s.cursor !== null) {
				streamingSeen++;
				check(s.cursor.includes('▍'), `a streaming turn shows no cursor (content ${s.cursor})`);
			}
			firstProgress ??= s.progress;
			if (s.progress !== null && s.progress !== firstProgress) progressMoved = true;
			await page.waitForTimeout(150);
		}
		// Not vacuous: turns were streaming and the bar moved while the page was watched.
		check(streamingSeen > 0, `no turn was streaming in ${samples} samples`);
		check(progressMoved, `the progress bar did not move in ${samples} samples`);
		ctx.note(`${samples} samples, ${streamingSeen} with a turn streaming; no animation`);
		await waitForDone(page, runId, planned, 60_000);
	}
};
