/**
 * What a chat template says of the run values (its thinking, header and reasoning defaults, its
 * hash and repo), read the same way for every shell that holds the template itself: the CLI and
 * the playground. The set-up form reads the same three defaults from its template check
 * (setup/templateCheck.ts), which calls these functions off the page.
 */
import { reasoningEffortDefault, userHeaderDefault } from './markup.ts';
import type { RunValues } from './runConfig.ts';
import { thinkingDefault, type ChatTemplate } from './template.ts';

export type TemplateValues = Pick<
	RunValues,
	'thinking_default' | 'user_header_default' | 'reasoning_effort_default' | 'template_sha256'
>;

export function templateValues(t: ChatTemplate): TemplateValues {
	return {
		thinking_default: thinkingDefault(t),
		user_header_default: userHeaderDefault(t),
		reasoning_effort_default: reasoningEffortDefault(t),
		template_sha256: t.sha256
	};
}
