/**
 * Bundle gate for the web-llm split. Run after `npm run build`:
 *   npx tsx tests/build/checkBundle.ts [--dist dist] [--out test-results/bundle-report.json] [--limit-kb 100]
 * Prints and writes a JSON report; exits 1 on any violation (see bundleReport.ts for the rules).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { analyzeBundle, INITIAL_JS_LIMIT_KB } from './bundleReport.ts';

function arg(name: string, fallback: string): string {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function jsFiles(root: string, dir = root): Map<string, string> {
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

const dist = arg('dist', 'dist');
const outPath = arg('out', 'test-results/bundle-report.json');
const limitKb = Number(arg('limit-kb', String(INITIAL_JS_LIMIT_KB)));

let html: string;
try {
	html = readFileSync(join(dist, 'index.html'), 'utf8');
} catch {
	console.error(`No ${join(dist, 'index.html')}: run \`npm run build\` first.`);
	process.exit(1);
}
const report = analyzeBundle(html, jsFiles(dist), limitKb);
const json = JSON.stringify({ dist, ...report }, null, '\t');
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, `${json}\n`);
console.log(json);
if (!report.ok) {
	console.error(`\nBundle check FAILED:\n- ${report.violations.join('\n- ')}`);
	process.exit(1);
}
console.log(
	`\nBundle check passed: initial JS ${report.initial_js_gzip_kb} KB gz (limit ${limitKb}), web-llm chunk ${report.webllm_chunk_gzip_kb} KB gz in ${report.webllm_chunks[0]}.`
);
