#!/usr/bin/env -S node --max-old-space-size=512
// The old-space limit bounds the heap the CLI lets garbage pile up in. Without it V8 sizes the heap
// to the machine (4 GB on 24 GB) and a run of 15,000 requests at 64 in flight peaked at 198–351 MB
// RSS (uncollected garbage: the heap after a full GC was 14 MB); with it, 143 MB in each run. 512 MB
// leaves room for what the CLI does keep: summarize holds ~190 bytes per record (tests/bench/cli1m.ts).
// `env -S` splits the flags on Linux and macOS; npm's Windows shims read the same line.
// The CLI is TypeScript shared with the web app. `npm ci` bundles it (npm run build:cli) into
// bin/dist/probe.js, which starts without compiling anything. When that bundle is missing, or older
// than one of the project's sources it was built from (a developer's edit since), tsx runs the
// sources directly instead, so the command never runs stale code.
import { readFileSync, statSync } from 'node:fs';

const dist = new URL('./dist/', import.meta.url);
const root = new URL('../', import.meta.url);

function bundleIsFresh() {
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
