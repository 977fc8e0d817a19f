/**
 * End-to-end tests of the production build in headless Chromium:
 *
 *   npm run test:e2e                       build, serve, run every scenario
 *   npm run test:e2e -- --only xss,resume  a subset (ids as printed)
 *   npm run test:e2e -- --skip-build       reuse test-results/e2e-dist
 *
 * Exits non-zero on any failure; the last line is exactly `N passed, M failed`.
 */
import { parseArgs } from 'node:util';
import { assertChromium, launchBrowser } from './browser.ts';
import { createHooks, type E2EContext } from './context.ts';
import { runScenarios, summarize, type Scenario } from './harness.ts';
import { buildApp, serveBuild } from './server.ts';
import { SCENARIOS } from './scenarios/index.ts';

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			only: { type: 'string' },
			'skip-build': { type: 'boolean', default: false }
		}
	});
	const started = Date.now();
	let chosen: Scenario<E2EContext>[] = SCENARIOS;
	if (values.only) {
		const ids = values.only.split(',').map((s) => s.trim());
		const unknown = ids.filter((id) => !SCENARIOS.some((s) => s.id === id));
		if (unknown.length > 0) {
			console.error(
				`Unknown scenario(s): ${unknown.join(', ')}. Known: ${SCENARIOS.map((s) => s.id).join(', ')}`
			);
			return 2;
		}
		chosen = SCENARIOS.filter((s) => ids.includes(s.id));
	}

	assertChromium();
	if (!values['skip-build']) {
		const t = Date.now();
		await buildApp();
		console.log(`built the app in ${((Date.now() - t) / 1000).toFixed(1)} s`);
	}
	const app = await serveBuild();
	const browser = await launchBrowser();
	console.log(`serving ${app.url}; Chromium ${browser.version()}`);
	try {
		const results = await runScenarios(chosen, createHooks(app, browser));
		console.log(summarize(results, Date.now() - started));
		return results.every((r) => r.ok) ? 0 : 1;
	} finally {
		await browser.close();
		await app.close();
	}
}

main().then(
	(code) => process.exit(code),
	(err: unknown) => {
		console.error(err instanceof Error ? (err.stack ?? err.message) : err);
		// Still the line CI reads: nothing ran.
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
);
