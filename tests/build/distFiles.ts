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

/** Every file under `root` whose name matches `pattern`, keyed by its POSIX path relative to `root`. */
function filesMatching(root: string, pattern: RegExp, dir = root): Map<string, string> {
	const out = new Map<string, string>();
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) {
			for (const [k, v] of filesMatching(root, pattern, path)) out.set(k, v);
		} else if (pattern.test(entry.name)) {
			out.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
		}
	}
	return out;
}

/** Every .js/.mjs file under `root`, keyed by its POSIX path relative to `root`. */
export function jsFiles(root: string): Map<string, string> {
	return filesMatching(root, /\.m?js$/);
}

/** The other text files a browser reads (styles, JSON, the web manifest, SVG, HTML, maps). */
export function otherTextFiles(root: string): Map<string, string> {
	return filesMatching(root, /\.(css|json|webmanifest|svg|html?|txt|map|xml)$/);
}

/**
 * The built index.html, its JS files and the other text files.
 * @throws MissingBuildError when dist has no index.html.
 */
export function readDist(dist: string): {
	html: string;
	files: Map<string, string>;
	others: Map<string, string>;
} {
	let html: string;
	try {
		html = readFileSync(join(dist, 'index.html'), 'utf8');
	} catch {
		throw new MissingBuildError(dist);
	}
	return { html, files: jsFiles(dist), others: otherTextFiles(dist) };
}
