/**
 * Which checker the template loaders use: a shell routes every check of its process through its
 * worker (templateCheck.ts) at start-up. Kept free of the Jinja interpreter so the app's first
 * view can install one without loading it.
 */
import type { ChatTemplate } from './template.ts';

/**
 * Checks a template: resolves when it renders a probe exchange, else rejects with why.
 * @throws AbortError when `signal` aborts (the check stops at once).
 */
export type CheckTemplate = (t: ChatTemplate, signal?: AbortSignal) => Promise<void>;

let installed: CheckTemplate | null = null;

/** Route template checks through `check`, or back to the in-process check with null. */
export function useTemplateChecker(check: CheckTemplate | null): void {
	installed = check;
}

/** The installed checker; null means the loaders check in-process (tests, the bench). */
export function templateChecker(): CheckTemplate | null {
	return installed;
}
