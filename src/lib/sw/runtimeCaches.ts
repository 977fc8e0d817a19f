/**
 * What the service worker caches the first time it is used instead of precaching: the engines'
 * worker chunks and wasm, which a visitor who only opens shared runs never needs, and every chunk
 * of the app outside the shell (vite.precacheShell.ts: the precache holds the first screen only).
 * One entry per cache, matched in this order; a new engine asset is one more entry before the
 * last (the precache's globIgnores in vite.config.ts must then leave it out too).
 */

export interface RuntimeCache {
	/** Matched against the request URL's pathname. */
	path: RegExp;
	cacheName: string;
	/** Old versions beyond this many are dropped (each build renames the files). */
	maxEntries: number;
}

export const RUNTIME_CACHES: readonly RuntimeCache[] = [
	// web-llm (2 MB gzipped): its worker chunk.
	{ path: /\/webgpu\.worker-[\w-]+\.js$/, cacheName: 'engine-worker', maxEntries: 2 },
	// wllama: its worker chunk and 8 MB wasm; where a browser needs it, the compatibility build's
	// code (wllama-*.js) and 16 MB wasm, fetched only together.
	{
		path: /\/(cpu\.worker-[\w-]+\.js|wllama-[\w-]+\.(wasm|js))$/,
		cacheName: 'cpu-engine',
		maxEntries: 4
	},
	// The app's other chunks and styles: each view's, the template worker's. Names carry the build's
	// hash, so a file never changes; the least recently used go past a few builds' worth.
	{ path: /\/assets\/[\w.-]+\.(js|css)$/, cacheName: 'app-chunks', maxEntries: 400 }
];

/** Precache globIgnores for the files above (the wasm is not in the precache's globs anyway). */
export const RUNTIME_CACHED_GLOBS = [
	'**/webgpu.worker-*.js',
	'**/cpu.worker-*.js',
	'**/wllama-*.js'
];
