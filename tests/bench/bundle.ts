/** Bundle sizes from the built dist/, measured exactly as the bundle gate measures them. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeBundle } from '../build/bundleReport.ts';
import { readDist } from '../build/distFiles.ts';

export interface BundleSizes {
	/** Entry chunk plus everything it imports statically, gzipped per file and summed. */
	initialJsGzipKB: number;
	webllmChunkGzipKB: number | null;
	webllmChunk: string | null;
	initialFiles: string[];
	/** What the bundle gate (tests/build/checkBundle.ts) would reject; empty when it passes. */
	gateViolations: string[];
	/** When dist/index.html was written, so a stale build is noticed. */
	builtAt: string;
}

export function hasBuild(dist: string): boolean {
	return existsSync(join(dist, 'index.html'));
}

/** @throws MissingBuildError when dist has no index.html. */
export function measureBundle(dist: string): BundleSizes {
	const { html, files } = readDist(dist);
	const report = analyzeBundle(html, files);
	return {
		initialJsGzipKB: report.initial_js_gzip_kb,
		webllmChunkGzipKB: report.webllm_chunk_gzip_kb,
		webllmChunk: report.webllm_chunks.length === 1 ? report.webllm_chunks[0] : null,
		initialFiles: report.initial_files,
		gateViolations: report.violations,
		builtAt: statSync(join(dist, 'index.html')).mtime.toISOString()
	};
}
