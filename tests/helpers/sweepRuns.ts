/**
 * A sweep's runs stored and not started, as set-up stores every run before the first starts: one
 * run per generator, all else the same, through the real launch path.
 */
import { vi } from 'vitest';
import { createAndStart, type EngineChoice } from '../../src/lib/app/launch.ts';
import type { AppServices } from '../../src/lib/app/services.ts';
import type { RunValues } from '../../src/lib/probe/runConfig.ts';
import { runValues } from './factories.ts';
import { hashedFixtureTemplate } from './fixtures.ts';

/** @returns the runs' ids, in the generators' order (`<prefix>-<generator>`). */
export async function storeSweep(
	services: AppServices,
	opts: {
		prefix: string;
		generators: readonly string[];
		/** null: each generator judges itself (rules only). */
		judge: string | null;
		choice: EngineChoice;
		values?: Partial<RunValues>;
	}
): Promise<string[]> {
	const idle = { active: false, runId: null, start: vi.fn(async () => {}) };
	const template = hashedFixtureTemplate();
	const ids: string[] = [];
	for (const model of opts.generators) {
		const values = runValues({
			run_id: `${opts.prefix}-${model}`,
			generator: { id: model },
			judge: { id: opts.judge ?? model },
			judge_mode: opts.judge === null ? 'rules' : 'llm',
			perturbations: ['none'],
			samples: 1,
			...opts.values
		});
		const run = { values, template, choice: opts.choice };
		ids.push((await createAndStart(services, idle as never, run)).config.run_id);
	}
	return ids;
}
