/**
 * Everything a run needs to resume with no network: its items and its chat template, stored in
 * IndexedDB beside the manifest (db/runInputs.ts), and how it reached its engine (which engine,
 * which server URL; never an API key), in localStorage.
 */
import { AppError } from '../errors/appError.ts';
import { judgePromptHash } from '../probe/judge.ts';
import { runManifest, type ManifestExtras } from '../probe/records.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { DatasetItem, ProbeConfig, RunManifest } from '../probe/types.ts';
import type { DexieRunInputs } from '../db/runInputs.ts';
import { engineKindOf, type EngineKind } from '../engines/registry.ts';
import { decodeTemplate, encodeTemplate } from './templates.ts';

/** How the run reached its engine. The API key is deliberately absent: it is never stored here. */
export interface RunLaunch {
	engine: EngineKind;
	/** OpenAI-compatible server root, e.g. "http://127.0.0.1:8000/v1". */
	base_url?: string;
}

export interface RunInputs {
	items: DatasetItem[];
	template: ChatTemplate;
}

export class RunInputsError extends AppError {
	constructor(message: string) {
		super(message, { code: 'run_inputs' });
		this.name = 'RunInputsError';
	}
}

const LAUNCH_PREFIX = 'utp:run-launch:';

/**
 * The manifest written before the first event, so a reload at once still finds the run. Built by
 * the probe core's one manifest builder, as the pipeline's later writes are.
 */
export async function initialManifest(
	config: ProbeConfig,
	opts: {
		/** The runtime's name (Engine.name), as the pipeline's later writes record it. */
		engine: string;
		template: ChatTemplate;
		appVersion: string;
		now?: () => Date;
		/** The run's identity and config_hash (probe/prepare.ts), stored from the first write. */
		extras?: ManifestExtras;
	}
): Promise<RunManifest> {
	return runManifest(config, {
		engine: opts.engine,
		template_sha256: opts.template.sha256,
		judge_prompt_hash: await judgePromptHash(),
		// Nothing is running yet: if the tab closes now, the run view offers Resume.
		status: 'paused',
		now: () => (opts.now ?? (() => new Date()))().toISOString(),
		app_version: opts.appVersion,
		extras: opts.extras
	});
}

/** Manifest, items and template in one transaction: a run exists whole or not at all. */
export async function createRun(
	store: Pick<DexieRunInputs, 'createRun'>,
	manifest: RunManifest,
	inputs: RunInputs,
	now: () => Date = () => new Date()
): Promise<void> {
	await store.createRun(manifest, {
		items: inputs.items,
		template: encodeTemplate(inputs.template),
		created_at: now().toISOString()
	});
}

/**
 * @returns undefined when the run was made elsewhere (an import) and has no stored inputs.
 * @throws TemplateError when the stored template no longer renders.
 */
export async function loadRunInputs(
	store: Pick<DexieRunInputs, 'get'>,
	runId: string
): Promise<RunInputs | undefined> {
	const row = await store.get(runId);
	if (!row) return undefined;
	return { items: row.items, template: await decodeTemplate(row.template, `run ${runId}`) };
}

/**
 * The exact config the run started with, so the pipeline skips every stored key on resume.
 * @throws RunInputsError when the stored items are not the manifest's items.
 */
export function configFromManifest(manifest: RunManifest, items: DatasetItem[]): ProbeConfig {
	// samples_at_t0 is derived from `samples` (the manifest builder writes it), not a setting.
	const { item_ids, samples_at_t0: _derived, ...rest } = manifest.config;
	const byId = new Map(items.map((i) => [i.id, i]));
	const ordered = item_ids.map((id) => byId.get(id));
	const missing = item_ids.filter((_, i) => ordered[i] === undefined);
	if (missing.length > 0) {
		throw new RunInputsError(
			`The stored items of run ${manifest.run_id} lack ${missing.length} of its item ids (e.g. ${missing[0]}).`
		);
	}
	return { ...rest, items: ordered as DatasetItem[] };
}

export function saveLaunch(storage: Storage | undefined, runId: string, launch: RunLaunch): void {
	try {
		storage?.setItem(LAUNCH_PREFIX + runId, JSON.stringify(launch));
	} catch {
		// Storage full or disabled: resume then asks for the server again, nothing else breaks.
	}
}

/** The run is gone: its launch goes too. */
export function forgetLaunch(storage: Storage | undefined, runId: string): void {
	try {
		storage?.removeItem(LAUNCH_PREFIX + runId);
	} catch {
		// Disabled storage holds nothing to forget.
	}
}

export function readLaunch(storage: Storage | undefined, runId: string): RunLaunch | undefined {
	try {
		const raw = storage?.getItem(LAUNCH_PREFIX + runId);
		if (!raw) return undefined;
		const v = JSON.parse(raw) as Partial<Record<keyof RunLaunch, unknown>>;
		// Launches saved before the webgpu/cpu/server names hold the runtime's name.
		const engine = engineKindOf(v.engine);
		if (engine === undefined) return undefined;
		return { engine, base_url: typeof v.base_url === 'string' ? v.base_url : undefined };
	} catch {
		return undefined;
	}
}
