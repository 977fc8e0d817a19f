import { describe, expect, it } from 'vitest';
import { runConfig } from '../../../src/lib/probe/runConfig.ts';
import { RUN_DEFAULTS, runValues } from '../../../src/lib/probe/runValues.ts';
import { benchConfig } from '../../../src/lib/bench/plan.ts';
import { DEFAULT_FORM, formRunValues } from '../../../src/lib/setup/runForm.ts';

const subject = {
	run_id: 'r',
	dataset: 'gsm8k',
	items: [{ id: 'a', prompt: 'Q?', task: 'gsm8k' as const, answer: '1' }],
	generator: { id: 'gen' }
};

describe('runValues', () => {
	it('gives the defaults for everything a shell does not say, the generator as judge', () => {
		const v = runValues(RUN_DEFAULTS, subject);
		expect(v).toEqual({ ...RUN_DEFAULTS, ...subject, judge: { id: 'gen' } });
	});

	it('keeps a default where a shell passes undefined, and takes null as said', () => {
		const v = runValues(RUN_DEFAULTS, {
			...subject,
			seed: undefined,
			answer_max_tokens: undefined,
			thinking: null,
			user_header: 'role',
			judge: { id: 'judge' }
		});
		expect(v.seed).toBe(RUN_DEFAULTS.seed);
		expect(v.answer_max_tokens).toBe(RUN_DEFAULTS.answer_max_tokens);
		expect(v.thinking).toBeNull();
		expect(v.user_header).toBe('role');
		expect(v.judge).toEqual({ id: 'judge' });
	});

	it('is what the set-up form builds from its defaults, but for what the form says', () => {
		const form = formRunValues(DEFAULT_FORM, {
			...subject,
			judge: { id: 'gen' },
			thinking_default: null
		});
		expect(form).toEqual(
			runValues(RUN_DEFAULTS, {
				...subject,
				limit: DEFAULT_FORM.n,
				temperatures: [0, 0.5, 1]
			})
		);
	});

	it("gives the bench its own conditions and the run's defaults for the rest", () => {
		const config = benchConfig('m');
		expect(config.truncate_fraction).toBe(RUN_DEFAULTS.truncate_fraction);
		expect(config.samples).toBe(RUN_DEFAULTS.samples);
		expect(config.task_prompt).toEqual(RUN_DEFAULTS.task_prompt);
		expect(config.judge).toEqual({ id: 'm' });
		expect(runConfig(runValues(RUN_DEFAULTS, subject)).answer_max_tokens).toBe(
			RUN_DEFAULTS.answer_max_tokens
		);
	});
});
