/**
 * Vite plugin: `virtual:shipped-templates`, the npm-carried chat templates that ship with the app,
 * extracted at build (and test) time by src/lib/templates/extract.ts (the CLI's build emits the
 * same module, build.cli.ts).
 */
import type { Plugin } from 'vite';
import { shippedModule } from './src/lib/templates/extract.ts';

const ID = 'virtual:shipped-templates';
const RESOLVED = `\0${ID}`;

export function shippedTemplates(): Plugin {
	let root = process.cwd();
	return {
		name: 'shipped-templates',
		configResolved(config) {
			root = config.root;
		},
		resolveId(id) {
			return id === ID ? RESOLVED : undefined;
		},
		load(id) {
			return id === RESOLVED ? shippedModule(root) : undefined;
		}
	};
}
