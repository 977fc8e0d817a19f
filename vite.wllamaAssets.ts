/**
 * Vite plugin: wllama's assets come from the app's own origin. wllama imports its compatibility
 * build's URLs from src/wasm-from-cdn.ts, which names a public CDN; this plugin resolves that
 * import to src/lib/engines/cpu/worker/wllamaAssets.ts (the same names, our assets), so the CDN
 * never reaches a built file. It also fails the build when @wllama/wllama-compat is not the version
 * of @wllama/wllama: the two builds must come from one release.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const OWN_ASSETS = fileURLToPath(
	new URL('./src/lib/engines/cpu/worker/wllamaAssets.ts', import.meta.url)
);
const WLLAMA_SRC = `${sep}@wllama${sep}wllama${sep}src${sep}`;

export class WllamaVersionMismatchError extends Error {
	constructor(wllama: string, compat: string) {
		super(
			`@wllama/wllama-compat is ${compat} but @wllama/wllama is ${wllama}: install the compat package at ${wllama}.`
		);
		this.name = 'WllamaVersionMismatchError';
	}
}

function packageVersion(root: string, name: string): string {
	const require = createRequire(join(root, 'package.json'));
	// Neither package exports its package.json: find the folder from a file each ships.
	const file = require.resolve(`${name}/${name.endsWith('-compat') ? 'index.js' : 'index.ts'}`);
	return (
		JSON.parse(readFileSync(join(dirname(file), 'package.json'), 'utf8')) as { version: string }
	).version;
}

/** @throws WllamaVersionMismatchError */
export function checkWllamaVersions(root: string = process.cwd()): string {
	const wllama = packageVersion(root, '@wllama/wllama');
	const compat = packageVersion(root, '@wllama/wllama-compat');
	if (wllama !== compat) throw new WllamaVersionMismatchError(wllama, compat);
	return wllama;
}

export function wllamaAssets(): Plugin {
	return {
		name: 'wllama-assets',
		enforce: 'pre',
		configResolved(config) {
			checkWllamaVersions(config.root);
		},
		resolveId(source, importer) {
			if (importer?.includes(WLLAMA_SRC) && /^\.\/wasm-from-cdn(\.ts)?$/.test(source)) {
				return OWN_ASSETS;
			}
			return null;
		}
	};
}
