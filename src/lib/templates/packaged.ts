/**
 * The npm-carried chat templates for Node (the CLI), where Vite's virtual module does not exist.
 * Run from the sources (tsx, the tests) this reads the packages in the clone's node_modules; the
 * CLI's bundle build (build.cli.ts) replaces this whole module with the extracted entries, so the
 * installed command carries them and reads nothing at run time, as the app's bundle does.
 */
import { fileURLToPath } from 'node:url';
import type { ShippedEntry } from './entry.ts';
import { readShippedTemplates } from './extract.ts';
import { SHIPPED_TEMPLATE_PACKAGES } from './packages.ts';

/** The entries of the packages installed here; one not installed is left out (the Hub is asked). */
export function packagedTemplates(): ShippedEntry[] {
	const root = fileURLToPath(new URL('../../../', import.meta.url));
	return SHIPPED_TEMPLATE_PACKAGES.flatMap((p) => {
		try {
			return readShippedTemplates(root, [p]);
		} catch {
			return [];
		}
	});
}
