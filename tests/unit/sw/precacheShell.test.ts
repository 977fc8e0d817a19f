import { describe, expect, it } from 'vitest';
import { shellFiles, type BundleFile } from '../../../vite.precacheShell.ts';

const chunk = (fileName: string, over: Partial<BundleFile> = {}): BundleFile => ({
	type: 'chunk',
	fileName,
	imports: [],
	moduleIds: [],
	...over
});

/** A build shaped like the app's: an entry, the home view and its parts, and views it never shows. */
const BUNDLE: Record<string, BundleFile> = {
	'index.html': { type: 'asset', fileName: 'index.html' },
	'assets/index-a.js': chunk('assets/index-a.js', {
		isEntry: true,
		imports: ['assets/runtime-b.js'],
		viteMetadata: { importedCss: new Set(['assets/index-a.css']) }
	}),
	'assets/runtime-b.js': chunk('assets/runtime-b.js'),
	'assets/HomeView-c.js': chunk('assets/HomeView-c.js', {
		moduleIds: ['/app/src/views/home/HomeView.svelte'],
		imports: ['assets/Fold-d.js', 'assets/index-a.js'],
		viteMetadata: { importedCss: new Set(['assets/HomeView-c.css']) }
	}),
	'assets/Fold-d.js': chunk('assets/Fold-d.js', {
		viteMetadata: { importedCss: new Set(['assets/Fold-d.css']) }
	}),
	'assets/env-e.js': chunk('assets/env-e.js', {
		moduleIds: ['/app/src/lib/app/other.ts', '/app/src/lib/app/environmentPart.ts']
	}),
	'assets/ResultsView-f.js': chunk('assets/ResultsView-f.js', {
		moduleIds: ['/app/src/views/results/ResultsView.svelte'],
		imports: ['assets/chart-g.js', 'assets/Fold-d.js']
	}),
	'assets/chart-g.js': chunk('assets/chart-g.js')
};

describe('the precached shell', () => {
	it("is the entry and the first screen's chunks with their static imports and CSS, nothing else", () => {
		const roots = ['src/views/home/HomeView.svelte', 'src/lib/app/environmentPart.ts'];
		expect(shellFiles(BUNDLE, roots)).toEqual([
			'assets/Fold-d.css',
			'assets/Fold-d.js',
			'assets/HomeView-c.css',
			'assets/HomeView-c.js',
			'assets/env-e.js',
			'assets/index-a.css',
			'assets/index-a.js',
			'assets/runtime-b.js'
		]);
	});

	it('fails the build when a root is in no chunk (renamed or moved), rather than precache less', () => {
		expect(() => shellFiles(BUNDLE, ['src/views/home/Gone.svelte'])).toThrow(
			'no chunk holds src/views/home/Gone.svelte'
		);
	});
});
