/**
 * Engine settings shared by set-up and the playground: which engine, which models, where the chat
 * template comes from. Preferences persist in localStorage; the API key stays in memory unless the
 * user ticks "remember", and is never part of a run's manifest or an export.
 */
import {
	ENGINES,
	ENGINE_LIST,
	deviceDefault,
	engineKindOf,
	type EngineKind,
	type ModelsOf
} from '../engines/registry.ts';
import type {
	Connection,
	DeviceFacts,
	EngineModels,
	EngineProvider,
	GpuFacts
} from '../engines/provider.ts';
import type { TemplateSpec } from '../setup/templates.ts';
import { Persisted, browserStorage, type KeyValueStorage } from './persisted.svelte.ts';
import { ModelMirror } from './modelMirror.svelte.ts';

export type TemplateKind = 'repo' | 'url' | 'file';

export interface TemplateFile {
	name: string;
	text: string;
}

export class EngineSettings {
	readonly engine: Persisted<EngineKind>;
	/** Where catalog models download from: Hugging Face, or a school's mirror (every engine). */
	readonly mirror: ModelMirror;
	/** Each engine's own settings (its models), under its own persisted keys. */
	readonly models: { readonly [K in EngineKind]: ModelsOf<K> };
	readonly templateKind: Persisted<TemplateKind>;
	/** Empty: the catalog's repo (device) or the served model id when it looks like a repo. */
	readonly templateRepo: Persisted<string>;
	readonly templateUrl: Persisted<string>;
	/** End-of-turn token for a bare .jinja template (it cannot carry its special tokens). */
	readonly eosToken: Persisted<string>;
	/** Template files the user chose, per generator model (see templateFileKey), kept across visits. */
	readonly #templateFiles: Persisted<Record<string, TemplateFile>>;
	#apiKey = $state('');
	readonly #remember: Persisted<boolean>;
	readonly #storedKey: Persisted<string>;
	/** Hugging Face token for gated datasets (GPQA): in memory unless remembered, never in a run. */
	#hfToken = $state('');
	readonly #rememberHf: Persisted<boolean>;
	readonly #storedHf: Persisted<string>;

	/** @param mirror the app's one model mirror setting (a fresh one over `storage` when not given) */
	constructor(
		storage: KeyValueStorage | undefined = browserStorage(),
		mirror: ModelMirror = new ModelMirror(storage)
	) {
		const p = <T>(key: string, fallback: T) => new Persisted<T>(`utp:${key}`, fallback, storage);
		// Settings saved before the webgpu/cpu/server names hold the runtime's name: read as its kind.
		this.engine = new Persisted<EngineKind>(
			'utp:engine',
			ENGINE_LIST[0].kind,
			storage,
			engineKindOf
		);
		this.models = Object.fromEntries(
			ENGINE_LIST.map((provider) => [provider.kind, provider.models(p)])
		) as EngineSettings['models'];
		this.mirror = mirror;
		this.templateKind = p<TemplateKind>('template-kind', 'repo');
		this.templateRepo = p('template-repo', '');
		this.templateUrl = p('template-url', '');
		this.eosToken = p('eos-token', '');
		this.#templateFiles = p<Record<string, TemplateFile>>('template-files', {});
		this.#remember = p('remember-key', false);
		this.#storedKey = p('api-key', '');
		this.#apiKey = this.#remember.current ? this.#storedKey.current : '';
		this.#rememberHf = p('remember-hf-token', false);
		this.#storedHf = p('hf-token', '');
		this.#hfToken = this.#rememberHf.current ? this.#storedHf.current : '';
	}

	/** Sent only to huggingface.co when a gated dataset loads; see datasets/tasks/gpqa.ts. */
	get hfToken(): string {
		return this.#hfToken;
	}
	set hfToken(value: string) {
		this.#hfToken = value;
		if (this.#rememberHf.current) this.#storedHf.current = value;
	}

	/** Ticking stores the token on this device; unticking erases the stored copy at once. */
	get rememberHfToken(): boolean {
		return this.#rememberHf.current;
	}
	set rememberHfToken(value: boolean) {
		this.#rememberHf.current = value;
		if (value) this.#storedHf.current = this.#hfToken;
		else {
			this.#storedHf.current = '';
			this.#storedHf.forget();
		}
	}

	get apiKey(): string {
		return this.#apiKey;
	}
	set apiKey(value: string) {
		this.#apiKey = value;
		if (this.#remember.current) this.#storedKey.current = value;
	}

	/** Ticking stores the key; unticking erases the stored copy at once. */
	get rememberKey(): boolean {
		return this.#remember.current;
	}
	set rememberKey(value: boolean) {
		this.#remember.current = value;
		if (value) this.#storedKey.current = this.#apiKey;
		else {
			this.#storedKey.current = '';
			this.#storedKey.forget();
		}
	}

	/** The chosen engine's provider. */
	get provider(): EngineProvider<EngineKind> {
		return ENGINES[this.engine.current];
	}

	/** The chosen engine's own settings. */
	get chosen(): EngineModels {
		return this.models[this.engine.current];
	}

	/** How to reach the engine when it is a server: the URL as typed and the key in memory. */
	connection(): Connection {
		return { base_url: this.models.server.baseUrl.current.trim(), api_key: this.apiKey };
	}

	/**
	 * Which generator a chosen template file belongs to: the engine (by its runtime's name, as
	 * files saved before the webgpu/cpu/server names were keyed) and the model as the user picked
	 * it. Another model never sees this model's file.
	 */
	templateFileKey(): string {
		return `${this.provider.runtime}:${this.chosen.pickedGenerator()}`;
	}

	/** The file chosen for the current generator, this visit or an earlier one. */
	get templateFile(): TemplateFile | null {
		const f = this.#templateFiles.current[this.templateFileKey()];
		// A hand-edited or older stored value of another shape is not a file.
		return f && typeof f.name === 'string' && typeof f.text === 'string' ? f : null;
	}
	set templateFile(file: TemplateFile | null) {
		const all = { ...this.#templateFiles.current };
		const key = this.templateFileKey();
		if (file) all[key] = { name: file.name, text: file.text };
		else delete all[key];
		this.#templateFiles.current = all;
	}

	/** The generator's engine-specific id ('' when none is chosen); a GGUF URL on the CPU engine. */
	generatorId(device: GpuFacts): string {
		return this.chosen.generatorId(device);
	}

	judgeId(device: GpuFacts): string {
		return this.chosen.judgeId(device);
	}

	/** Where the generator's chat template comes from, or null when nothing says. */
	templateSpec(device: GpuFacts): TemplateSpec | null {
		const eos = this.eosToken.current.trim() || undefined;
		switch (this.templateKind.current) {
			case 'file': {
				const f = this.templateFile;
				return f ? { kind: 'file', name: f.name, text: f.text, eos_token: eos } : null;
			}
			case 'url': {
				const url = this.templateUrl.current.trim();
				return url ? { kind: 'url', url, eos_token: eos } : null;
			}
			case 'repo': {
				const typed = this.templateRepo.current.trim();
				if (typed) return { kind: 'repo', repos: [typed] };
				const d = this.chosen.defaultTemplate(device);
				// Asking a server for its template may need the key, which only this class holds.
				return d?.kind === 'server' ? { ...d, apiKey: this.apiKey || undefined } : d;
			}
		}
	}

	/**
	 * What a template check is for: the engine and model (templateFileKey), the source and, but for
	 * a file, what it names. A file's check is for the file slot: a file that fails it is forgotten,
	 * and its error still belongs to the choice.
	 */
	templateChoice(device: GpuFacts): string {
		const kind = this.templateKind.current;
		const spec = kind === 'file' ? null : this.templateSpec(device);
		return JSON.stringify([this.templateFileKey(), kind, spec]);
	}

	/**
	 * Default the engine to what this device can use, once its GPU is known: in the browser with
	 * WebGPU, the CPU engine without. A choice the user made (or saved) always wins, and
	 * the default is not saved, so a browser that gains WebGPU later defaults to the GPU.
	 */
	adoptDeviceDefault(env: { canRunModels: boolean }): void {
		this.engine.preferDefault(deviceDefault(env));
	}

	/**
	 * What blocks a start on the engine side, worded for the person filling the form.
	 * `checked: false` means the GPU is still being probed (canRunModels is not known yet).
	 */
	problems(env: DeviceFacts): string[] {
		const out = this.chosen.problems(env);
		if (!this.templateSpec(env)) {
			out.push(
				this.templateKind.current === 'repo'
					? 'Enter the Hugging Face repo of the chat template (e.g. Qwen/Qwen3-0.6B).'
					: this.templateKind.current === 'url'
						? 'Enter the chat template URL.'
						: 'Choose a .jinja or tokenizer_config.json file.'
			);
		}
		return out;
	}

	/** A short description of the template source, for the manifest-side display. */
	templateLabel(device: GpuFacts): string {
		const spec = this.templateSpec(device);
		if (!spec) return 'none';
		if (spec.kind === 'repo') return spec.repos[0];
		if (spec.kind === 'server') return `the server's own (${spec.baseUrl})`;
		return spec.kind === 'url' || spec.kind === 'gguf' ? spec.url : spec.name;
	}
}
