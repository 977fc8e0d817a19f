/**
 * A run's plain values from defaults and what a shell says: the one builder of RunValues. The
 * set-up form, the CLI's flags, the playground and the device bench each pass only what differs
 * from the defaults, so a field added to RunValues gets its default here, once. Light on purpose
 * (no Jinja), like runConfig.ts: the set-up form sizes its answer limit with it.
 */
import { DEFAULT_ANSWER_MAX_TOKENS, type RunValues } from './runConfig.ts';
import { BARE_TASK_PROMPT } from './taskPrompt.ts';

/** What every run must name itself: no default can stand in for these. */
export type RunSubject = Pick<RunValues, 'run_id' | 'dataset' | 'items' | 'generator'>;

/** What a run has when its shell does not say: everything but its subject and judge. */
export type RunDefaults = Omit<RunValues, keyof RunSubject | 'judge'>;

/**
 * This app's defaults: one condition (T=0, no perturbation, one sample), the hybrid judge, a
 * 256-token user turn and an answer limit sized from the context window where it is known. A
 * template-derived field (thinking_default, user_header_default…) is the template's to say
 * (templateValues.ts); here it is a template that says nothing.
 */
export const RUN_DEFAULTS: Readonly<RunDefaults> = {
	limit: 0,
	seed: 0,
	temperatures: [0],
	perturbations: ['none'],
	samples: 1,
	judge_mode: 'hybrid',
	max_tokens: 256,
	answer_max_tokens: DEFAULT_ANSWER_MAX_TOKENS,
	answer_tokens_auto: true,
	thinking: null,
	thinking_default: null,
	user_header: null,
	reasoning_effort: null,
	truncate_fraction: 0.5,
	append_text: 'What do you think?',
	task_prompt: BARE_TASK_PROMPT,
	template_sha256: undefined
};

/** What a shell says of a run: its subject, and whichever defaults it changes. */
export type RunOverrides = RunSubject & Partial<Pick<RunValues, 'judge'>> & Partial<RunDefaults>;

/**
 * The run's values: `overrides` over `defaults`. A field given as undefined is not said, so it
 * keeps its default (null is said: "the template's own default"). Without a judge, the generator
 * stands in (a rules-only run calls none, and the manifest stays complete).
 */
export function runValues(defaults: Readonly<RunDefaults>, overrides: RunOverrides): RunValues {
	const said = Object.fromEntries(
		Object.entries(overrides).filter(([, v]) => v !== undefined)
	) as RunOverrides;
	return { ...defaults, ...said, judge: said.judge ?? { id: said.generator.id } };
}
