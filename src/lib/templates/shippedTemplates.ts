/**
 * The chat templates that ship with the app (families.ts): the npm-carried ones from the build's
 * `virtual:shipped-templates`, the copies from shipped.ts. Loaded on demand, so the first screen
 * carries none of it.
 */
import shipped from 'virtual:shipped-templates';
import { shippedTemplateIn } from './entry.ts';
import type { ChatTemplate } from '../probe/template.ts';

export { provenanceOf } from './entry.ts';

/** The shipped template of `repo`, validated and hashed like a Hub one; undefined when none ships. */
export async function shippedTemplate(repo: string): Promise<ChatTemplate | undefined> {
	return shippedTemplateIn(shipped, repo);
}

/** Every shipped entry, for the tests and the README table. */
export const SHIPPED_TEMPLATES = shipped;
