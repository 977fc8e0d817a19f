/**
 * Bundle gate for the web-llm and wllama splits, and no CDN in any built file. Run after `npm run build`:
 *   npx tsx tests/build/checkBundle.ts [--dist dist] [--out test-results/bundle-report.json] [--limit-kb 100]
 * Prints and writes a JSON report; exits 1 on any violation (see bundleReport.ts for the rules).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { analyzeBundle, INITIAL_JS_LIMIT_KB } from './bundleReport.ts';
import { MissingBuildError, readDist } from './distFiles.ts';

function arg(name: string, fallback: string): string {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const dist = arg('dist', 'dist');
const outPath = arg('out', 'test-results/bundle-report.json');
const limitKb = Number(arg('limit-kb', String(INITIAL_JS_LIMIT_KB)));

let built: ReturnType<typeof readDist>;
try {
	built = readDist(dist);
} catch (err) {
	if (!(err instanceof MissingBuildError)) throw err;
	console.error(err.message);
	process.exit(1);
}
const report = analyzeBundle(built.html, built.files, limitKb, built.others);
const json = JSON.stringify({ dist, ...report }, null, '\t');
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, `${json}\n`);
console.log(json);
if (!report.ok) {
	console.error(`\nBundle check FAILED:\n- ${report.violations.join('\n- ')}`);
	process.exit(1);
}
console.log(
	`\nBundle check passed: initial JS ${report.initial_js_gzip_kb} KB gz (limit ${limitKb}), web-llm chunk ${report.webllm_chunk_gzip_kb} KB gz in ${report.webllm_chunks[0]}, wllama chunk ${report.wllama_chunk_gzip_kb} KB gz in ${report.wllama_chunks[0]}.`
);
