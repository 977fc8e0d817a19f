/**
 * Where catalog models download from: Hugging Face, or a school's model mirror (engines/mirror.ts).
 * Set in set-up or by a class link (`#/?models=<base>`), remembered in this browser, and checked
 * once per address: what is wrong is said in plain words, naming the file; what the mirror's
 * index.json lists (each model's size, each file's size and sha256) goes to the engines.
 */
import {
	checkMirror,
	mirrorBaseProblem,
	normalizeMirrorBase,
	type MirrorCheck,
	type MirrorFetch,
	type MirrorManifest
} from '../engines/mirror.ts';
import { Persisted, browserStorage, type KeyValueStorage } from './persisted.svelte.ts';

export type MirrorStatus =
	| { state: 'none' }
	| { state: 'checking'; base: string }
	| { state: 'ok'; base: string; manifest?: MirrorManifest }
	/** A problem with the files this run needs; the manifest, when read, still gives sizes. */
	| { state: 'problem'; base: string; problem: string; manifest?: MirrorManifest };

export class ModelMirror {
	readonly #base: Persisted<string>;
	#status = $state.raw<MirrorStatus>({ state: 'none' });
	/** What the last check was for (base and files), so a check runs once per question. */
	#asked = '';

	constructor(storage: KeyValueStorage | undefined = browserStorage()) {
		this.#base = new Persisted<string>('utp:model-mirror', '', storage);
	}

	/** The mirror's base as set ('' : Hugging Face). */
	get base(): string {
		return normalizeMirrorBase(this.#base.current);
	}

	/** The address as typed (set-up's field). */
	get typed(): string {
		return this.#base.current;
	}

	/** Why the typed address cannot be used here, or null. */
	problemOf(raw: string, pageProtocol?: string): string | null {
		return mirrorBaseProblem(raw, pageProtocol);
	}

	/** Take models from `raw` ('' : from Hugging Face again); a changed address is checked anew. */
	set(raw: string): void {
		const text = raw.trim();
		if (text === this.#base.current) return;
		this.#base.current = text;
		this.#status = { state: 'none' };
		this.#asked = '';
	}

	get status(): MirrorStatus {
		return this.#status;
	}

	/** The mirror's manifest, when its check read one (even if a file this run needs is missing). */
	get manifest(): MirrorManifest | undefined {
		const s = this.#status;
		return (s.state === 'ok' || s.state === 'problem') && s.base === this.base
			? s.manifest
			: undefined;
	}

	/** What the engines load through: the base and, once checked, its manifest; undefined: the Hub. */
	source(): { base: string; manifest?: MirrorManifest } | undefined {
		const base = this.base;
		if (!base) return undefined;
		const manifest = this.manifest;
		return manifest ? { base, manifest } : { base };
	}

	/** A model's download in bytes as the mirror's index.json lists it. */
	bytesOf(model: string): number | undefined {
		return this.manifest?.models[model]?.bytes;
	}

	/** The same in MB (what set-up shows); null: the mirror's index.json does not list it. */
	listedMb(model: string): number | null {
		const bytes = this.bytesOf(model);
		return bytes === undefined ? null : Math.round(bytes / (1024 * 1024));
	}

	/**
	 * Check the mirror once for these files (Hub URLs); again only when the address or the files
	 * change. Never throws: a failure is the status's problem.
	 */
	async check(
		want: readonly string[],
		fetchFn: MirrorFetch,
		pageProtocol?: string
	): Promise<MirrorCheck> {
		const base = this.base;
		const typed = this.#base.current.trim();
		if (!base) {
			const problem = typed ? mirrorBaseProblem(typed, pageProtocol) : null;
			if (problem) this.#status = { state: 'problem', base: typed, problem };
			return problem ? { ok: false, problem } : { ok: true };
		}
		const asked = JSON.stringify([base, [...want].sort()]);
		if (asked === this.#asked && this.#status.state !== 'none') return this.#lastCheck();
		this.#asked = asked;
		this.#status = { state: 'checking', base };
		let result: MirrorCheck;
		try {
			result = await checkMirror({ base, want, fetch: fetchFn, pageProtocol });
		} catch (err) {
			result = { ok: false, problem: err instanceof Error ? err.message : String(err) };
		}
		// The address changed while this check ran: its answer is no longer the question's.
		if (this.base !== base) return result;
		this.#status = result.ok
			? { state: 'ok', base, ...(result.manifest ? { manifest: result.manifest } : {}) }
			: {
					state: 'problem',
					base,
					problem: result.problem ?? 'The model mirror failed.',
					...(result.manifest ? { manifest: result.manifest } : {})
				};
		return result;
	}

	#lastCheck(): MirrorCheck {
		const s = this.#status;
		if (s.state === 'problem') {
			return { ok: false, problem: s.problem, ...(s.manifest ? { manifest: s.manifest } : {}) };
		}
		return s.state === 'ok' && s.manifest ? { ok: true, manifest: s.manifest } : { ok: true };
	}
}
