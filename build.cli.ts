/**
 * Bundles the CLI (npm run build:cli) into bin/dist: probe.js and the template-check worker beside
 * it, each with every dependency inside, so the installed command needs no node_modules. The
 * npm-carried chat templates are copied in at build time, as the app's bundle does: the module that
 * reads them from the clone's packages (src/lib/templates/packaged.ts) is replaced by their data.
 */
import { build, type Plugin } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readShippedTemplates } from './src/lib/templates/extract.ts';

const ROOT = fileURLToPath(new URL('./', import.meta.url));

/** packaged.ts as the entries it would read, extracted now (the bench's bundle uses it too). */
export const shippedTemplatesPlugin: Plugin = {
	name: 'shipped-templates',
	setup(b) {
		b.onLoad({ filter: /[\\/]src[\\/]lib[\\/]templates[\\/]packaged\.ts$/ }, () => ({
			contents: `const entries = ${JSON.stringify(readShippedTemplates(ROOT))};
export function packagedTemplates() { return entries; }`,
			loader: 'js'
		}));
	}
};

async function buildCli(): Promise<void> {
	const { metafile } = await build({
		entryPoints: ['src/cli/probe.ts', 'src/cli/templateWorker.ts'],
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node20',
		outdir: 'bin/dist',
		metafile: true,
		logLevel: 'warning',
		plugins: [shippedTemplatesPlugin]
	});
	// bin/user-turn-probe.js compares the sources' times with the bundle's to run the newer.
	writeFileSync('bin/dist/meta.json', JSON.stringify(metafile));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildCli();
