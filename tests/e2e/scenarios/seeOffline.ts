/**
 * A first-time visitor with every request off this machine blocked (a school network with the Hub
 * and CDNs blocked) and no server: from the first screen, one click opens "See what the model
 * sees" with a real probe prompt, and a second click labels a user turn by the rules, with the
 * reason. Nothing off this machine is asked for; the page counts what was refused.
 */
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const V = 'see';

export const seeOffline: Scenario<E2EContext> = {
	id: 'see-offline',
	title: 'everything off this machine blocked: a real probe prompt and a labelled turn in 2 clicks',
	timeoutMs: 60_000,
	async run(ctx) {
		const { page, context } = await ctx.profile();
		const refused: string[] = [];
		await context.route(
			(url) => !LOOPBACK.has(url.hostname),
			async (route) => {
				refused.push(route.request().url());
				await route.abort('blockedbyclient');
			}
		);
		await openView(page, ctx.app.url, '#/');
		let clicks = 0;

		// Click 1: the first screen's way in.
		await (await need(page, 'home', 'go-see')).click();
		clicks++;
		const prompt = await need(page, V, 'see-prompt');
		const text = await prompt.innerText();
		check(
			text.includes('Janet’s ducks') && text.includes('The answer is 18.'),
			`the probe prompt lacks the question or the answer: "${text.slice(0, 200)}"`
		);
		const special = await prompt.locator('.special').allInnerTexts();
		check(
			special.includes('<|im_start|>') && special.includes('<|im_end|>'),
			`special tokens are not marked: ${JSON.stringify(special)}`
		);
		const header = (await prompt.locator('.header').allInnerTexts()).join('');
		check(/<\|im_start\|>\s*user/.test(header), `the user header is not marked: "${header}"`);
		const takeover = await (await need(page, V, 'see-takeover')).innerText();
		check(/as the user/.test(takeover), `where the model takes over is not said: "${takeover}"`);

		// Click 2: a user turn a model might write.
		await (await need(page, V, 'see-example-malformed_artifact')).click();
		clicks++;
		const label = await need(page, V, 'see-label');
		await page
			.locator('[data-testid="see-label"][data-label="malformed_artifact"]')
			.waitFor({ timeout: UI_TIMEOUT_MS })
			.catch(async () => {
				throw new E2EFailure(
					`the turn is not labelled malformed_artifact: "${await label.innerText()}"`
				);
			});
		const why = await label.innerText();
		check(/why: contains template token/.test(why), `the rules' reason is not shown: "${why}"`);
		check(clicks === 2, `took ${clicks} clicks`);

		const offMachine = refused.filter((u) => !u.startsWith('data:'));
		ctx.note(
			`requests refused off this machine: ${offMachine.length} (${offMachine.slice(0, 3).join(', ')})`
		);
		await ctx.screenshot(page, 'see-offline');
	}
};
