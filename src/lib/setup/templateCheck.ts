/**
 * What set-up reads off a chat template before a run: the bare user header the probe ends with,
 * the thinking default and the markup controls. The renderer (Jinja) loads with the first
 * template read, never with the set-up view.
 */
import type { ChatTemplate } from '../probe/template.ts';
import type { TemplateMarkup } from '../probe/markup.ts';

export interface TemplateCheck {
	spec: string;
	template: ChatTemplate;
	/** The bare user header the probe ends with, e.g. "<|im_start|>user\n". */
	header: string;
	/** The template's enable_thinking default; null where it ignores the flag. */
	thinking: boolean | null;
	/** Its header cuts and reasoning effort, for the conditions' controls. */
	markup: TemplateMarkup;
}

/** A two-turn exchange to read the template's user header off. */
const SAMPLE_EXCHANGE = [
	{ role: 'user' as const, content: 'What is 2 + 2?' },
	{ role: 'assistant' as const, content: '2 + 2 = 4.' }
];

/** @param spec the source's key (JSON of its spec), so a later check of the same source is reused. */
export async function readTemplateCheck(
	spec: string,
	template: ChatTemplate
): Promise<TemplateCheck> {
	const [{ thinkingDefault, userHeader }, { templateMarkup }] = await Promise.all([
		import('../probe/template.ts'),
		import('../probe/markup.ts')
	]);
	return {
		spec,
		template,
		header: userHeader(template, SAMPLE_EXCHANGE),
		thinking: thinkingDefault(template),
		markup: templateMarkup(template, SAMPLE_EXCHANGE)
	};
}
