/**
 * Starting a run, written once. From plain values (what the set-up form or the command line says,
 * the dataset as loaded, the chat template, what the engines tell of the models) to the run's
 * config (runConfig.ts), its identity (identity.ts), the manifest fields that carry it, and what the
 * run needs before it starts. The browser's Start, the CLI's `run` and the bench call `prepareRun`,
 * so one config means the same run in every shell; a browser resume calls `prepareConfig`. Given
 * the run already stored, either checks the new identity against it (identity.ts checkResume) here,
 * once, and the shell says what its rule makes of the check.
 */
import {
	checkResume,
	datasetSha256,
	identityHash,
	runIdentity,
	type ModelFingerprint,
	type ResumeCheck,
	type RunIdentity
} from './identity.ts';
import { judgePromptHash } from './judge.ts';
import type { ManifestExtras } from './records.ts';
import { referencePromptHash } from './referenceJudge.ts';
import { runConfig, type RunValues } from './runConfig.ts';
import { itemsUseNlp } from './scoring/index.ts';
import type { ProbeConfig, RunManifest } from './types.ts';

export interface PreparedRun {
	config: ProbeConfig;
	/** The run's identity; resuming a stored run, the checked one (every stored fingerprint kept). */
	identity: RunIdentity;
	/** The manifest fields the identity travels in; the shells add their own (nlp_data, adapter). */
	manifestExtras: Required<Pick<ManifestExtras, 'identity' | 'config_hash'>>;
	/** What must be had before the run starts: NLTK's data for scoring, a judge model. */
	needs: { nlp: boolean; judge: boolean };
	/**
	 * The identity checked against the stored run's (`stored` given): the shell refuses on
	 * `conflict`, and on `vanished` unless its user accepts unchecked weights.
	 */
	resume?: ResumeCheck;
}

/** The run stored under the same id (or output) that this one would go on with. */
export interface StoredAgainst {
	stored?: RunManifest;
}

/** The run a set of values describes, its identity, and what it needs. */
export async function prepareRun(v: RunValues, against: StoredAgainst = {}): Promise<PreparedRun> {
	return prepareConfig({
		config: runConfig(v),
		template_sha256: v.template_sha256,
		dataset_sha256: await datasetSha256(v.items),
		models: v.models,
		...against
	});
}

/**
 * A config's identity (identity.ts has the rule) and what the run needs. `dataset_sha256` is the
 * whole dataset's hash: prepareRun computes it; a browser resume takes it from the stored manifest
 * (a stored run's items are stored with it and cannot change).
 */
export async function prepareConfig(
	inp: {
		config: ProbeConfig;
		template_sha256: string | undefined;
		dataset_sha256?: string;
		models?: { generator?: ModelFingerprint; judge?: ModelFingerprint };
	} & StoredAgainst
): Promise<PreparedRun> {
	const { config } = inp;
	const current = runIdentity({
		config,
		template_sha256: inp.template_sha256,
		judge_prompt_hash: await judgePromptHash(),
		reference_prompt_hash: config.items.some((i) => i.reference_turn !== undefined)
			? await referencePromptHash()
			: undefined,
		dataset_sha256: inp.dataset_sha256,
		...inp.models
	});
	const resume = inp.stored ? checkResume(inp.stored, config.run_id, current) : undefined;
	const identity = resume?.identity ?? current;
	return {
		config,
		identity,
		manifestExtras: { identity, config_hash: await identityHash(identity) },
		needs: { nlp: itemsUseNlp(config.items), judge: config.judge_mode !== 'rules' },
		...(resume && { resume })
	};
}
