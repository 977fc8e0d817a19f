/** Before any scenario: Chromium must be there, and the production build is made (unless reused). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { assertChromium } from './browser.ts';
import { buildApp, BUILD_DIR } from './server.ts';

export default async function globalSetup(): Promise<void> {
	assertChromium();
	if (process.env.E2E_SKIP_BUILD === '1') {
		// Without a build every page is a 404, and each scenario would fail on something else.
		if (!existsSync(join(BUILD_DIR, 'index.html'))) {
			throw new Error(`E2E_SKIP_BUILD=1 but ${BUILD_DIR} holds no build: run once without it`);
		}
		console.log(`reusing the build in ${BUILD_DIR} (E2E_SKIP_BUILD=1)`);
		return;
	}
	const t = Date.now();
	await buildApp();
	console.log(`built the app in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}
