/**
 * Folders depend one way only: no folder of src (src/lib/<folder>, cli, workers, views,
 * components) imports, through any chain, a folder that imports it back. The checker itself is
 * tested on small trees with a deliberate cycle, so a tree that passes has been looked at.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
	folderCycles,
	folderGraph,
	folderOf,
	importsOf,
	reachedFrom,
	readSources
} from './importGraph.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const cyclesIn = (files: Record<string, string>) =>
	folderCycles(folderGraph(new Map(Object.entries(files))));

describe('the import-cycle checker', () => {
	it('finds a two-folder cycle and names the imports that make it', () => {
		const cycles = cyclesIn({
			'src/lib/state/runner.svelte.ts': "import { buildConfig } from '../app/runForm.ts';",
			'src/lib/app/launch.ts': "import type { RunController } from '../state/runner.svelte.ts';"
		});
		expect(cycles).toEqual([
			{
				folders: ['lib/app', 'lib/state'],
				imports: [
					'src/lib/app/launch.ts -> ../state/runner.svelte.ts',
					'src/lib/state/runner.svelte.ts -> ../app/runForm.ts'
				]
			}
		]);
	});

	it('finds a longer cycle through a .svelte file, a $lib alias and a dynamic import', () => {
		const cycles = cyclesIn({
			'src/views/run/RunView.svelte':
				'<script lang="ts">\n\timport { x } from \'$lib/state/a.ts\';\n</script>\n<p>{x}</p>',
			'src/lib/state/a.ts': "export const x = () => import('../stats/b.ts');",
			'src/lib/stats/b.ts': "export * from '../../views/run/helper.ts';"
		});
		expect(cycles.map((c) => c.folders)).toEqual([['lib/state', 'lib/stats', 'views']]);
	});

	it('passes one-way imports, imports inside a folder and packages', () => {
		expect(
			cyclesIn({
				'src/lib/probe/a.ts': "import './scoring/b.ts'; import 'svelte';",
				'src/lib/probe/scoring/b.ts': "import '../a.ts';",
				'src/lib/state/c.ts': "import '../probe/a.ts';",
				'src/views/V.svelte': "<script>import '../lib/state/c.ts';</script>"
			})
		).toEqual([]);
	});

	it('maps paths to folders', () => {
		expect(folderOf('src/lib/engines/webgpu/client.ts')).toBe('lib/engines');
		expect(folderOf('src/cli/run.ts')).toBe('cli');
		expect(folderOf('src/App.svelte')).toBe('src');
		expect(folderOf('package.json')).toBeNull();
		expect(importsOf('a.ts', "export { a } from './a.ts'; const b = import('./b.ts');")).toEqual([
			'./a.ts',
			'./b.ts'
		]);
	});
});

describe('src', () => {
	const sources = readSources(REPO);

	it('has no import cycle between folders', () => {
		expect(folderCycles(folderGraph(sources))).toEqual([]);
	});

	it('keeps only rune classes (*.svelte.ts) in lib/state', () => {
		const state = [...sources.keys()].filter((p) => p.startsWith('src/lib/state/'));
		expect(state.length).toBeGreaterThan(0);
		expect(state.filter((p) => !p.endsWith('.svelte.ts'))).toEqual([]);
	});

	it('keeps the CLI and the build configs out of the app (lib/app), through any chain', () => {
		const configs = readdirSync(REPO).filter((f) => /^(vite|vitest|build)\..*\.?ts$/.test(f));
		expect(configs).toContain('vite.config.ts');
		expect(configs).toContain('build.cli.ts');
		const files = new Map(sources);
		for (const f of configs) files.set(f, readFileSync(`${REPO}${f}`, 'utf8'));
		const cli = [...sources.keys()].filter((p) => p.startsWith('src/cli/'));
		const reached = reachedFrom(files, [...cli, ...configs]);
		expect(reached.has('src/lib/templates/extract.ts')).toBe(true);
		expect([...reached].filter((p) => p.startsWith('src/lib/app/'))).toEqual([]);
	});
});
