/**
 * Issue 37, high 4, in the browser: set-up's "Check server" against a server whose /props sends
 * 1 GB without end (generated as it goes). The tab answers throughout, the check ends within the
 * /props limits with the models listed and no served template, and the flood is cut near its cap
 * (8 MB), not read whole: before, a body this large was read in full (a ~700 MB stream crashed the
 * tab).
 */
import { need, openView, setControl, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { startHostileServer } from '../../helpers/hostileServer.ts';

const V = 'setup';

export const hostileServer: Scenario<E2EContext> = {
	id: 'hostile-server',
	title: 'a server whose /props floods 1 GB: the tab answers, the check ends, the flood is cut',
	timeoutMs: 90_000,
	async run(ctx) {
		const server = await startHostileServer();
		try {
			server.model = 'flood-model';
			server.hostility = 'flood-props';
			server.floodBytes = 1024 ** 3;
			const { page } = await ctx.profile();
			await openView(page, ctx.app.url, '#/setup');
			await setControl(await need(page, V, 'engine-server'), true);
			await setControl(await need(page, V, 'base-url'), `${server.base}/v1`);
			await setControl(await need(page, V, 'model-id'), '');
			const t0 = Date.now();
			await (await need(page, V, 'check-server')).click();
			// While the check reads the flood, the tab answers within a second, again and again.
			let slowest = 0;
			let filled = false;
			while (!filled && Date.now() - t0 < 60_000) {
				const asked = Date.now();
				filled = await page.evaluate(
					() =>
						(document.querySelector('[data-testid="model-id"]') as HTMLInputElement | null)
							?.value === 'flood-model'
				);
				slowest = Math.max(slowest, Date.now() - asked);
				if (!filled) await page.waitForTimeout(200);
			}
			if (!filled) throw new E2EFailure('"Check server" never filled in the served model');
			const status = await (await need(page, V, 'server-check')).innerText();
			await page.waitForTimeout(1_000);
			check(slowest < 1_000, `the tab took ${slowest} ms to answer during the flood`);
			check(
				server.sent < 64 * 1024 ** 2,
				`the tab read ${(server.sent / 1024 ** 2).toFixed(0)} MB of the flood, not about 8`
			);
			check(!page.isClosed(), 'the tab closed');
			ctx.note(
				`/props flood: check done in ${Date.now() - t0} ms, slowest answer ${slowest} ms, ` +
					`${(server.sent / 1024 ** 2).toFixed(1)} MB sent; says "${status.replace(/\s+/g, ' ').slice(0, 120)}"`
			);
			await page.getByTestId('base-url').waitFor({ timeout: UI_TIMEOUT_MS });
		} finally {
			await server.close();
		}
	}
};
