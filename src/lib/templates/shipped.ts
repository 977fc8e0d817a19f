/**
 * Loads a copied template (families.ts) as the probe reads any template. Plain TS, so the app and
 * the CLI share it; the npm-shipped families come from a build (entry.ts).
 */
import { parseTokenizerConfig } from '../probe/templateSource.ts';
import type { ChatTemplate } from '../probe/template.ts';
import { shippedFamilyFor, type TemplateCopy } from './families.ts';

/** "copy of … @ …, Apache-2.0": where a copied template is from, as a run's manifest records it. */
export function copyProvenance(copy: Pick<TemplateCopy, 'source' | 'licence'>): string {
	return `copy of ${copy.source}, ${copy.licence}`;
}

/**
 * The copied template of `repo`, validated and hashed like a Hub one; undefined when `repo` has
 * no copy (an npm-shipped family is read by entry.ts from what a build extracted).
 */
export async function copiedTemplate(repo: string): Promise<ChatTemplate | undefined> {
	const origin = shippedFamilyFor(repo)?.origin;
	if (origin?.kind !== 'copy') return undefined;
	const config = JSON.stringify({
		chat_template: await origin.load(),
		bos_token: origin.bos_token,
		eos_token: origin.eos_token
	});
	const t = await parseTokenizerConfig(config, repo);
	t.extra_stop_tokens = [...origin.extra_stop_tokens];
	t.provenance = copyProvenance(origin);
	return t;
}
