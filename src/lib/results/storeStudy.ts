/**
 * Storing a study's runs (a study file imported, or opened by link): each run as Import stores
 * one, all of them or none. A run this browser holds under the same id stands in for the study's
 * only when it is the same run (its config hash and its records match); another run that happens
 * to carry the id (a CLI default id from someone else, a run since re-judged here) is never shown
 * in its place: the study's run is stored as a copy under a new id. A store that fails midway
 * (storage full) removes the runs it had added, so no part of the study is left behind.
 */
import { ExchangeError, type RunBundle } from '../probe/exchange.ts';
import type { ImportConflict } from '../db/transfer.ts';
import { RunExistsError, RunNotFoundError } from '../db/errors.ts';

export interface StudyStore {
	importRun(bundle: RunBundle, opts?: { onConflict?: ImportConflict }): Promise<string>;
	deleteRun(runId: string): Promise<void>;
	/** The stored run with this id, to compare with the study's. */
	exportRun(runId: string): Promise<RunBundle>;
}

/** A study's run whose id names another run here, and the id its copy was stored under. */
export interface StudyCopy {
	from: string;
	to: string;
}

export interface StoredStudy {
	/** The study's runs in order, as stored here. */
	run_ids: string[];
	/** Those that were here before, the same runs, and were kept as stored. */
	already: string[];
	/** Those this call stored (copies under their new ids). */
	added: string[];
	/** Those stored under a new id because another run here has theirs. */
	copies: StudyCopy[];
}

/**
 * Refuses a study that lists one run id twice: which of the two it means cannot be told.
 * @throws ExchangeError naming the ids.
 */
export function refuseRepeatedIds(bundles: readonly RunBundle[]): void {
	const ids = bundles.map((b) => b.manifest.run_id);
	const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
	if (repeated.length > 0)
		throw new ExchangeError([
			`the study lists ${repeated.length === 1 ? 'run' : 'runs'} ${repeated.map((id) => `"${id}"`).join(', ')} more than once; each run of a study needs its own id`
		]);
}

/** JSON with object keys in sorted order, so two equal values compare equal as text. */
function sortedJson(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) =>
		v !== null && typeof v === 'object' && !Array.isArray(v)
			? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
			: v
	);
}

/**
 * Whether a stored run is the study's run: the same config (hash) and the same records, whatever
 * id each is stored under (a copy carries another).
 */
export function sameRun(stored: RunBundle, study: RunBundle): boolean {
	const a = stored.manifest;
	const b = study.manifest;
	const sameConfig =
		a.config_hash !== undefined || b.config_hash !== undefined
			? a.config_hash === b.config_hash
			: sortedJson(a.config) === sortedJson(b.config);
	if (!sameConfig || stored.records.length !== study.records.length) return false;
	const content = (r: RunBundle['records'][number]) => sortedJson({ ...r, run_id: '' });
	const byKey = new Map(stored.records.map((r) => [r.key, content(r)]));
	return study.records.every((r) => byKey.get(r.key) === content(r));
}

/** Copies a study made before are tried this far ("<id>-2" … "<id>-21"). */
const COPIES_TRIED = 20;

/**
 * The id under which this browser holds the study's run already: its own id when that is the same
 * run, else a copy an earlier opening of the study stored ("<id>-2", …); undefined when none is.
 */
async function storedCopyOf(store: StudyStore, bundle: RunBundle): Promise<string | undefined> {
	const id = bundle.manifest.run_id;
	if (sameRun(await store.exportRun(id), bundle)) return id;
	for (let n = 2; n < 2 + COPIES_TRIED; n++) {
		let copy: RunBundle;
		try {
			copy = await store.exportRun(`${id}-${n}`);
		} catch (e) {
			if (e instanceof RunNotFoundError) return undefined;
			throw e;
		}
		if (sameRun(copy, bundle)) return copy.manifest.run_id;
	}
	return undefined;
}

/** @throws ExchangeError for repeated ids (nothing stored); the store's error (quota) after removing what this call added. */
export async function storeStudy(
	store: StudyStore,
	bundles: readonly RunBundle[]
): Promise<StoredStudy> {
	refuseRepeatedIds(bundles);
	const out: StoredStudy = { run_ids: [], already: [], added: [], copies: [] };
	try {
		for (const bundle of bundles) {
			const id = bundle.manifest.run_id;
			try {
				const stored = await store.importRun(bundle, { onConflict: 'refuse' });
				out.run_ids.push(stored);
				out.added.push(stored);
				continue;
			} catch (e) {
				if (!(e instanceof RunExistsError)) throw e;
			}
			const here = await storedCopyOf(store, bundle);
			if (here !== undefined) {
				out.run_ids.push(here);
				out.already.push(here);
				continue;
			}
			const copy = await store.importRun(bundle, { onConflict: 'rename' });
			out.run_ids.push(copy);
			out.added.push(copy);
			out.copies.push({ from: id, to: copy });
		}
	} catch (e) {
		for (const id of out.added) await store.deleteRun(id).catch(() => undefined);
		throw e;
	}
	return out;
}

/** In words, which runs were here already and which were added (the study view and Import say it). */
export function storedStudyText(s: Pick<StoredStudy, 'already' | 'added' | 'copies'>): string {
	const parts: string[] = [];
	const copied = new Set(s.copies.map((c) => c.to));
	const fresh = s.added.filter((id) => !copied.has(id));
	if (s.already.length > 0)
		parts.push(`already in this browser (the same runs, kept as stored): ${s.already.join(', ')}`);
	if (fresh.length > 0) parts.push(`added: ${fresh.join(', ')}`);
	for (const c of s.copies)
		parts.push(
			`${c.from} added as ${c.to} (this browser holds a different run named ${c.from}, left as it was)`
		);
	return parts.join('; ');
}
