/**
 * Vite plugin: the service worker precaches the app shell only, not every chunk. Its install
 * fetches the precache one file after another (workbox does, on purpose), so 130 files took 22 s
 * on a slow school network (issue 39); a shell of a dozen files installs in a few seconds. The
 * shell is read from the bundle's own graph: index.html's entry with what it imports statically,
 * the first screen's chunks (each root's static imports) and their CSS, plus the files beside them
 * (index.html, the web manifest, icons). Every other chunk is cached the first time the page loads
 * it (src/lib/sw/runtimeCaches.ts), and what a first visit loaded before the worker took over is
 * handed to it then (src/lib/app/offlineCache.ts).
 */
import type { Plugin } from 'vite';

/** The slice of a Rollup output chunk or asset read here. */
export interface BundleFile {
	type: 'chunk' | 'asset';
	fileName: string;
	isEntry?: boolean;
	/** The modules bundled into the chunk. */
	moduleIds?: readonly string[];
	imports?: string[];
	viteMetadata?: { importedCss: Set<string> };
}

/**
 * The built files of the shell: the entry chunks and the chunks holding a module that ends with one
 * of `roots` (the first screen), each with everything it imports statically and the CSS they import.
 */
export function shellFiles(bundle: Record<string, BundleFile>, roots: readonly string[]): string[] {
	const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
	const holds = (c: BundleFile, root: string) =>
		c.moduleIds?.some((m) => m.endsWith(root)) === true;
	const start = chunks.filter((c) => c.isEntry || roots.some((r) => holds(c, r)));
	const missing = roots.filter((r) => !start.some((c) => holds(c, r)));
	if (missing.length > 0) throw new Error(`precacheShell: no chunk holds ${missing.join(', ')}`);
	const shell = new Set<string>();
	const queue = start.map((c) => c.fileName);
	while (queue.length > 0) {
		const name = queue.pop() as string;
		if (shell.has(name)) continue;
		shell.add(name);
		const chunk = bundle[name];
		for (const css of chunk?.viteMetadata?.importedCss ?? []) shell.add(css);
		queue.push(...(chunk?.imports ?? []));
	}
	return [...shell].sort();
}

/** Files of the build's top level (index.html, the manifest, icons, registerSW.js): all shell. */
const TOP_LEVEL = /^[^/]+$/;

export interface PrecacheShell {
	plugin: Plugin;
	/** For vite-plugin-pwa's injectManifest.manifestTransforms: keeps the shell's entries only. */
	transform: <E extends { url: string }>(entries: E[]) => Promise<{ manifest: E[]; warnings: [] }>;
}

/** @param roots module paths of the first screen's lazy chunks, e.g. 'src/views/home/HomeView.svelte' */
export function precacheShell(roots: readonly string[]): PrecacheShell {
	let shell: Set<string> | null = null;
	return {
		plugin: {
			name: 'precache-shell',
			apply: 'build',
			// Once written: index.html is in the bundle by then, and the service worker comes after.
			writeBundle(_options, bundle) {
				// Only the app's own bundle (the one with index.html), not a worker's or the service worker's.
				if (!('index.html' in bundle)) return;
				shell = new Set(shellFiles(bundle as unknown as Record<string, BundleFile>, roots));
			}
		},
		transform: async <E extends { url: string }>(entries: E[]) => {
			if (!shell) throw new Error('precacheShell: the app bundle was never seen');
			const keep = shell;
			return {
				manifest: entries.filter((e) => TOP_LEVEL.test(e.url) || keep.has(e.url)),
				warnings: [] as []
			};
		}
	};
}
