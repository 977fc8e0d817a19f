/**
 * What a study should say before its numbers: runs lined up side by side compare their generators
 * only when the rest is the same. Runs over different datasets, seeds (other items drawn, other
 * samples) or judges (another labeller, another mode) differ for those reasons too, so the study
 * view and `summarize` warn, naming which run has which.
 */

/** The settings of one run that a study expects to share. */
export interface StudySettings {
	run_id: string;
	dataset: string;
	seed: number;
	judge_mode?: string;
	judge?: { id: string };
}

/** The manifest's part this reads, so a caller with a manifest passes it as it is. */
export function studySettingsOf(manifest: {
	run_id: string;
	config: {
		dataset?: string;
		seed: number;
		judge_mode?: string;
		judge?: { id: string };
	};
}): StudySettings {
	const { dataset, seed, judge_mode, judge } = manifest.config;
	return { run_id: manifest.run_id, dataset: dataset ?? '', seed, judge_mode, judge };
}

/** The judge as one word: the mode, and the model when one is asked. */
function judgeOf(s: StudySettings): string {
	if (s.judge_mode === undefined) return '';
	return s.judge_mode === 'rules' ? 'rules' : `${s.judge_mode} ${s.judge?.id ?? '?'}`;
}

const ASPECTS: readonly {
	name: string;
	value: (s: StudySettings) => string;
	why: string;
}[] = [
	{ name: 'datasets', value: (s) => s.dataset, why: 'their rates are not over the same items' },
	{
		name: 'seeds',
		value: (s) => String(s.seed),
		why: 'they drew other items and samples'
	},
	{ name: 'judges', value: judgeOf, why: 'their labels come from different labellers' }
];

/** One sentence per setting the runs do not share; none when they share all (unknown is skipped). */
export function studyMixWarnings(runs: readonly StudySettings[]): string[] {
	const out: string[] = [];
	for (const { name, value, why } of ASPECTS) {
		const groups = new Map<string, string[]>();
		for (const r of runs) {
			const v = value(r);
			if (v === '') continue;
			groups.set(v, [...(groups.get(v) ?? []), r.run_id]);
		}
		if (groups.size < 2) continue;
		const list = [...groups].map(([v, ids]) => `${v}: ${ids.join(', ')}`).join('; ');
		out.push(`These runs use different ${name} (${list}), so ${why}.`);
	}
	return out;
}
