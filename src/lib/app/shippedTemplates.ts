/**
 * The chat templates that ship with the app (templates/families.ts): the npm-carried ones from the
 * build's `virtual:shipped-templates`, the copies from templates/shipped.ts. Loaded on demand, so
 * the first screen carries none of it.
 */
import shipped from 'virtual:shipped-templates';
import { copiedTemplate } from '../templates/shipped.ts';
import { templateOfShipped } from './shippedEntry.ts';
import type { ChatTemplate } from '../probe/template.ts';

export { provenanceOf } from './shippedEntry.ts';

/** The shipped template of `repo`, validated and hashed like a Hub one; undefined when none ships. */
export async function shippedTemplate(repo: string): Promise<ChatTemplate | undefined> {
	return (await templateOfShipped(shipped, repo)) ?? copiedTemplate(repo);
}

/** Every shipped entry, for the tests and the README table. */
export const SHIPPED_TEMPLATES = shipped;
