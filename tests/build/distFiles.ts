/**
 * Reads a built dist/ into the plain data bundleReport.ts analyzes. Shared by the bundle gate
 * (checkBundle.ts) and the bench (tests/bench/bundle.ts), so both measure the same files.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export class MissingBuildError extends Error {
	constructor(dist: string) {
		super(`No ${join(dist, 'index.html')}: run \`npm run build\` first.`);
		this.name = 'MissingBuildError';
	}
}

/** Every .js/.mjs file under `root`, keyed by its POSIX path relative to `root`. */
export function jsFiles(root: string, dir = root): Map<string, string> {
	const out = new Map<string, string>();
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) {
			for (const [k, v] of jsFiles(root, path)) out.set(k, v);
		} else if (/\.m?js$/.test(entry.name)) {
			out.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
		}
	}
	return out;
}

/**
 * The built index.html and its JS files.
 * @throws MissingBuildError when dist has no index.html.
 */
export function readDist(dist: string): { html: string; files: Map<string, string> } {
	let html: string;
	try {
		html = readFileSync(join(dist, 'index.html'), 'utf8');
	} catch {
		throw new MissingBuildError(dist);
	}
	return { html, files: jsFiles(dist) };
}
