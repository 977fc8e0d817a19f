/**
 * The chat templates the app ships, for the CLI: the same packages and lookup as the web app
 * (app/shippedRepos.ts, app/shippedEntry.ts), read from node_modules at run time because the
 * CLI runs from its sources (tsx) as well as from its esbuild bundle, where Vite's virtual module
 * does not exist. So `--template Qwen/Qwen2.5-0.5B-Instruct` needs no network.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readShippedTemplates } from '../../vite.shippedTemplates.ts';
import { shippedPackageFor } from '../lib/app/shippedRepos.ts';
import { templateOfShipped } from '../lib/app/shippedEntry.ts';
import { copiedTemplate } from '../lib/templates/shipped.ts';
import type { ChatTemplate } from '../lib/probe/template.ts';

/**
 * `repo`'s shipped template (a package's or a copy); undefined when none ships for it or its
 * package is not installed (then the Hub is asked, as before).
 */
export async function cliShippedTemplate(
	repo: string,
	from: string = dirname(fileURLToPath(import.meta.url))
): Promise<ChatTemplate | undefined> {
	const pkg = shippedPackageFor(repo);
	// The paper's families ship as copies in the repo (templates/shipped.ts): no package to read.
	if (!pkg) return copiedTemplate(repo);
	let entries;
	try {
		// Node resolves the package upward from here: bin/dist and src/cli both sit under the root.
		entries = readShippedTemplates(from, [pkg]);
	} catch {
		return undefined;
	}
	return templateOfShipped(entries, repo);
}
