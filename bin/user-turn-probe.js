#!/usr/bin/env node
// The CLI is TypeScript shared with the web app. `npm ci` and `npm pack` bundle it (npm run
// build:cli) into bin/dist/probe.js, which starts without compiling anything and carries all it
// needs. An installed package has no sources: it always runs the bundle. In a clone, when that
// bundle is missing, or older than one of the sources it was built from (a developer's edit since),
// tsx runs the sources directly instead, so the command never runs stale code.
import { existsSync, readFileSync, statSync } from 'node:fs';

const dist = new URL('./dist/', import.meta.url);
const root = new URL('../', import.meta.url);

function bundleIsFresh() {
	if (!existsSync(new URL('src/cli/probe.ts', root))) return true;
	try {
		const built = statSync(new URL('probe.js', dist)).mtimeMs;
		const { inputs } = JSON.parse(readFileSync(new URL('meta.json', dist), 'utf8'));
		return Object.keys(inputs)
			.filter((path) => !path.startsWith('node_modules/'))
			.every((path) => statSync(new URL(path, root)).mtimeMs <= built);
	} catch {
		return false;
	}
}

let main;
if (bundleIsFresh()) {
	// A URL, not a literal path, so the type check does not follow it into the generated bundle.
	({ main } = await import(new URL('probe.js', dist).href));
} else {
	const { register } = await import('tsx/esm/api');
	register();
	({ main } = await import('../src/cli/probe.ts'));
}
process.exitCode = await main(process.argv.slice(2));
