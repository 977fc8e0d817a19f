/**
 * What a run's records mean, as a flat map of named fields and a hash of it, stored in the
 * manifest. Resume compares the stored identity with the current one and refuses on a difference,
 * so a changed config (or other weights behind the same model id) never mixes into an old run.
 *
 * In: settings that change what a record means (dataset and its content, models as far as the
 * engine can tell, template, seed, token limits, judge, perturbation parameters). Out: what only
 * adds records (temperatures, perturbations, samples, the item count; records are keyed by them)
 * and what does not change results (concurrency, timeouts, run id).
 *
 * The dataset rule: `dataset_sha256` hashes the whole dataset the run draws from, as loaded, never
 * only the drawn items. The seed picks the items and the draw keeps its prefix as it grows
 * (sample.ts), so dataset + seed say which items a run of any size uses, and a larger item count
 * extends a run instead of changing it. Browser runs made before this rule stored the hash of their
 * drawn items; a browser resume takes the hash from the stored manifest (a stored run's items are
 * stored with it and cannot change), so those runs resume as they are.
 *
 * Pure: every shell builds the identity through prepare.ts and compares with `checkResume`.
 */
import type { ProbeConfig, RunManifest } from './types.ts';

/** One field's value; absent (undefined) means "could not tell", which is never a mismatch. */
export type IdentityValue = string | number | boolean | null;
export type RunIdentity = Record<string, IdentityValue>;

/**
 * A model as far as its engine can tell, beyond its id: e.g. vLLM's `root` (the weights path),
 * llama-server's `meta` (parameter count, size, vocabulary), web-llm's model record and version.
 */
export type ModelFingerprint = Record<string, IdentityValue>;

export interface IdentityInputs {
	/** The run's config, or a stored manifest's `config` (same fields, item_ids for items). */
	config: Omit<ProbeConfig, 'items' | 'run_id'> & { dataset?: string };
	template_sha256?: string;
	/** Needed only when a judge labels (judge_mode llm or hybrid). */
	judge_prompt_hash?: string;
	/** The comparison prompt's hash, when a judge compares turns with reference turns. */
	reference_prompt_hash?: string;
	/** sha256 of the whole dataset as loaded (`datasetSha256`; the rule above): an edit is told apart. */
	dataset_sha256?: string;
	generator?: ModelFingerprint;
	judge?: ModelFingerprint;
}

/** The fields, flat, with stable names (these names are what a mismatch message shows). */
export function runIdentity(inp: IdentityInputs): RunIdentity {
	const c = inp.config;
	const usesJudge = c.judge_mode !== 'rules';
	const out: Record<string, IdentityValue | undefined> = {
		dataset: c.dataset ?? 'custom',
		dataset_sha256: inp.dataset_sha256,
		generator: c.generator.id,
		...prefixed('generator', inp.generator),
		template_repo: c.generator.template_repo,
		template_sha256: inp.template_sha256,
		thinking: c.thinking,
		user_header: c.user_header,
		reasoning_effort: c.reasoning_effort,
		date_string: c.date_string,
		seed: c.seed,
		answer_temperature: c.answer_temperature,
		top_p: c.top_p,
		max_tokens: c.max_tokens,
		answer_max_tokens: c.answer_max_tokens,
		truncate_fraction: c.truncate_fraction,
		append_text: c.append_text,
		// Absent (the bare question) in runs made before task prompts existed: never a mismatch.
		task_template: c.task_prompt?.template,
		system_prompt: c.task_prompt?.system,
		judge_mode: c.judge_mode,
		judge: usesJudge ? c.judge.id : undefined,
		...(usesJudge ? prefixed('judge', inp.judge) : {}),
		judge_prompt_hash: usesJudge ? inp.judge_prompt_hash : undefined,
		// Absent for items without reference turns, so their runs' identities are as before.
		reference_prompt_hash: usesJudge ? inp.reference_prompt_hash : undefined
	};
	const clean: RunIdentity = {};
	for (const [k, v] of Object.entries(out)) if (v !== undefined) clean[k] = v;
	return clean;
}

function prefixed(name: string, fp: ModelFingerprint | undefined): RunIdentity {
	const out: RunIdentity = {};
	for (const [k, v] of Object.entries(fp ?? {})) if (k !== 'id') out[`${name}.${k}`] = v;
	return out;
}

/** The identity an old manifest (written before identities were stored) implies: no models' weights. */
export function identityOfManifest(m: RunManifest): RunIdentity {
	return runIdentity({
		config: m.config,
		template_sha256: m.template_sha256,
		judge_prompt_hash: m.judge_prompt_hash
	});
}

/** sha256 of the identity as canonical JSON (keys sorted), hex. */
export async function identityHash(id: RunIdentity): Promise<string> {
	const canonical = JSON.stringify(
		Object.keys(id)
			.sort()
			.map((k) => [k, id[k]])
	);
	return sha256Hex(canonical);
}

/** sha256 of a dataset's items in id order, whatever order they were loaded in. */
export async function datasetSha256(items: readonly { id: string }[]): Promise<string> {
	const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	return sha256Hex(JSON.stringify(sorted));
}

export interface IdentityCheck {
	/** Fields both sides know and that differ: the run must not resume with this config. */
	differ: string[];
	/** Fields only one side knows (an old manifest, an engine that cannot fingerprint). */
	unchecked: string[];
	/** True when the stored manifest had no identity and one was derived from its config. */
	legacy: boolean;
}

/**
 * Compare the identity stored in a manifest with the current one. A manifest without an identity
 * (written before they existed) is compared on what its config records; its models' weights cannot
 * be checked, so those fields come back as unchecked, not as differences.
 */
export function compareIdentity(stored: RunManifest, current: RunIdentity): IdentityCheck {
	const legacy = stored.identity === undefined;
	const before = stored.identity ?? identityOfManifest(stored);
	const differ: string[] = [];
	const unchecked: string[] = [];
	for (const k of new Set([...Object.keys(before), ...Object.keys(current)])) {
		const a = before[k];
		const b = current[k];
		if (a === undefined || b === undefined) unchecked.push(k);
		else if (a !== b) differ.push(k);
	}
	return { differ, unchecked, legacy };
}

/** "seed (0 → 1), generator.root (/m/a → /m/b)": the differing fields, for a one-line message. */
export function describeDifferences(
	stored: RunManifest,
	current: RunIdentity,
	fields: string[]
): string {
	const before = stored.identity ?? identityOfManifest(stored);
	const show = (v: IdentityValue | undefined) => {
		const s = JSON.stringify(v) ?? '?';
		return s.length > 40 ? `${s.slice(0, 37)}…` : s;
	};
	return fields.map((f) => `${f} (${show(before[f])} → ${show(current[f])})`).join(', ');
}

export interface ResumeCheck extends IdentityCheck {
	/** What differs, e.g. `seed (0 → 1), generator.root ("/a" → "/b")`; null: the run may resume. */
	conflict: string | null;
	/**
	 * Model fingerprint fields the run stored that the engine no longer reports (a server that
	 * stopped sending vLLM's `root`): the weights cannot be checked. The shells refuse unless the
	 * user says to go on; `describeVanished` words them.
	 */
	vanished: string[];
	/**
	 * The identity to store when resuming: the current one plus every stored fingerprint field it
	 * lacks. A fingerprint is never dropped, so a later resume against other weights still differs.
	 */
	identity: RunIdentity;
}

/** Fields that say which weights a model is, as `runIdentity` prefixes them. */
const isFingerprint = (field: string) =>
	field.startsWith('generator.') || field.startsWith('judge.');

/**
 * May a run stored under `stored` resume with this run id and identity? The one rule both shells
 * apply before resuming (the CLI on --out, the browser on Resume): refuse when `conflict` is set,
 * refuse when `vanished` is not empty unless the user explicitly accepts unchecked weights, and
 * store `identity` and `identityHash(identity)` in the manifest when resuming.
 */
export function checkResume(stored: RunManifest, runId: string, current: RunIdentity): ResumeCheck {
	const check = compareIdentity(stored, current);
	const parts = check.differ.length > 0 ? [describeDifferences(stored, current, check.differ)] : [];
	if (stored.run_id !== runId)
		parts.unshift(`run_id (${JSON.stringify(stored.run_id)} → ${JSON.stringify(runId)})`);
	const before = stored.identity ?? {};
	const vanished = Object.keys(before).filter((k) => isFingerprint(k) && current[k] === undefined);
	const identity: RunIdentity = { ...current };
	for (const k of vanished) identity[k] = before[k];
	return {
		...check,
		conflict: parts.length > 0 ? parts.join(', ') : null,
		vanished,
		identity
	};
}

/** `generator.root ("/m/a")`: the stored fingerprints the engine no longer reports. */
export function describeVanished(stored: RunManifest, fields: string[]): string {
	const before = stored.identity ?? {};
	return fields.map((f) => `${f} (${JSON.stringify(before[f])})`).join(', ');
}

/** crypto.subtle exists in browsers and Node 20 alike, so the hash is the same in both. */
async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
	return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A model's fingerprint from its entry in an OpenAI-compatible server's GET /v1/models: vLLM's
 * `root` and `parent` (the weights it serves under that name), llama-server's `meta` (parameter
 * count, file size, vocabulary; its id is the model path unless aliased), and `owned_by` (which
 * server it is). `created` is left out: vLLM reports the time of the request.
 */
export function fingerprintOfServerModel(entry: unknown): ModelFingerprint {
	const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
	const out: ModelFingerprint = {};
	if (typeof e.id === 'string') out.id = e.id;
	for (const k of ['root', 'parent', 'owned_by']) {
		const v = e[k];
		if (typeof v === 'string' || typeof v === 'number') out[k] = v;
	}
	if (typeof e.meta === 'object' && e.meta !== null) out.meta = canonicalJson(e.meta);
	return out;
}

function canonicalJson(v: unknown): string {
	if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
	if (typeof v === 'object' && v !== null) {
		const o = v as Record<string, unknown>;
		return `{${Object.keys(o)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
			.join(',')}}`;
	}
	return JSON.stringify(v) ?? 'null';
}
