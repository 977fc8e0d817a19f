/**
 * The built-in demo set: 20 short items we wrote ourselves (14 math word problems, 6 open
 * conversation prompts), bundled with the app so a first run needs no network at all.
 */
import type { DatasetItem } from '../../probe/types.ts';
import { DatasetError } from '../errors.ts';
import { itemProblems } from '../items.ts';
import type { TaskDefinition } from './task.ts';
import demoJson from '../../../../static/demo-items.json' with { type: 'json' };

/**
 * A fresh copy of the demo items (callers may mutate it).
 * @throws DatasetError if the bundled file is malformed (a build problem, caught by the tests).
 */
export function demoItems(): DatasetItem[] {
	const raw: unknown = structuredClone(demoJson);
	if (!Array.isArray(raw)) throw new DatasetError('demo-items.json is not a list');
	raw.forEach((item: unknown, i: number) => {
		const problems = itemProblems(item);
		if (problems.length > 0) {
			throw new DatasetError(`demo-items.json item ${i}: ${problems.join('; ')}`);
		}
	});
	return raw as DatasetItem[];
}

export const demo = {
	name: 'demo',
	title: 'Demo (20 items)',
	description:
		'14 short math word problems and 6 classroom-friendly conversation prompts, written for ' +
		'this app. Built in: works offline.',
	task: 'gsm8k',
	source: 'built in (static/demo-items.json)',
	rows: 20,
	needs: {},
	offline: true,
	option: 'Demo (20 items) (offline)',
	cliHelp: '20 built-in items (14 math word problems, 6 conversation prompts), offline',
	load: async () => demoItems()
} as const satisfies TaskDefinition;
