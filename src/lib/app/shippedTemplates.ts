/**
 * The chat templates that ship with the app (see shippedRepos.ts), read from the build's
 * `virtual:shipped-templates`. Loaded on demand, so the first screen carries none of it.
 */
import shipped from 'virtual:shipped-templates';
import { templateOfShipped } from './shippedEntry.ts';
import type { ChatTemplate } from '../probe/template.ts';

export { provenanceOf } from './shippedEntry.ts';

/** The shipped template of `repo`, validated and hashed like a Hub one; undefined when none ships. */
export async function shippedTemplate(repo: string): Promise<ChatTemplate | undefined> {
	return templateOfShipped(shipped, repo);
}

/** Every shipped entry, for the tests and the README table. */
export const SHIPPED_TEMPLATES = shipped;
