/**
 * Engine settings shared by set-up and the playground: which engine, which models, where the chat
 * template comes from. Preferences persist in localStorage; the API key stays in memory unless the
 * user ticks "remember", and is never part of a run's manifest or an export.
 */
import { catalogIds, modelOption, SUGGESTED, type ModelOption } from '../setup/models.ts';
import {
	customKey,
	modelFileUrl,
	parseCustomModel,
	readCustomModels,
	type CustomMlcInput,
	type CustomMlcModel
} from '../engines/webllm/custom.ts';
import {
	DEFAULT_CPU_GENERATOR,
	DEFAULT_CPU_JUDGE,
	findGguf,
	ggufUrl,
	ggufUrlProblem,
	type GgufEntry
} from '../engines/wllama/catalog.ts';
import type { EngineKind } from '../setup/runInputs.ts';
import type { TemplateSpec } from '../setup/templates.ts';
import { Persisted, browserStorage, type KeyValueStorage } from './persisted.svelte.ts';

export type TemplateKind = 'repo' | 'url' | 'file';

/** Catalog keys the in-browser pickers start with. */
export const DEFAULT_GENERATOR_KEY = SUGGESTED.generator.key;
export const DEFAULT_JUDGE_KEY = SUGGESTED.judge.key;

export interface TemplateFile {
	name: string;
	text: string;
}

export class EngineSettings {
	readonly engine: Persisted<EngineKind>;
	readonly baseUrl: Persisted<string>;
	readonly modelId: Persisted<string>;
	readonly judgeModelId: Persisted<string>;
	/** Catalog keys (not ids): the variant follows the GPU's shader-f16 support. */
	readonly generatorKey: Persisted<string>;
	readonly judgeKey: Persisted<string>;
	readonly templateKind: Persisted<TemplateKind>;
	/** Empty: the catalog's repo (device) or the served model id when it looks like a repo. */
	readonly templateRepo: Persisted<string>;
	readonly templateUrl: Persisted<string>;
	/** End-of-turn token for a bare .jinja template (it cannot carry its special tokens). */
	readonly eosToken: Persisted<string>;
	/** CPU engine: a GGUF catalog key, or CUSTOM_GGUF to use the typed URL. */
	readonly cpuGeneratorKey: Persisted<string>;
	readonly cpuJudgeKey: Persisted<string>;
	readonly cpuGeneratorUrl: Persisted<string>;
	readonly cpuJudgeUrl: Persisted<string>;
	/** Bring-your-own MLC models (custom.ts), offered in both pickers after the catalog. */
	readonly #customMlc: Persisted<CustomMlcModel[]>;
	/** Template files the user chose, per generator model (see templateFileKey), kept across visits. */
	readonly #templateFiles: Persisted<Record<string, TemplateFile>>;
	#apiKey = $state('');
	readonly #remember: Persisted<boolean>;
	readonly #storedKey: Persisted<string>;
	/** Hugging Face token for gated datasets (GPQA): in memory unless remembered, never in a run. */
	#hfToken = $state('');
	readonly #rememberHf: Persisted<boolean>;
	readonly #storedHf: Persisted<string>;

	constructor(storage: KeyValueStorage | undefined = browserStorage()) {
		const p = <T>(key: string, fallback: T) => new Persisted<T>(`utp:${key}`, fallback, storage);
		this.engine = p<EngineKind>('engine', 'webllm');
		this.baseUrl = p('base-url', 'http://127.0.0.1:8000/v1');
		this.modelId = p('model-id', '');
		this.judgeModelId = p('judge-model-id', '');
		this.generatorKey = p('generator', DEFAULT_GENERATOR_KEY);
		this.judgeKey = p('judge', DEFAULT_JUDGE_KEY);
		this.templateKind = p<TemplateKind>('template-kind', 'repo');
		this.templateRepo = p('template-repo', '');
		this.templateUrl = p('template-url', '');
		this.eosToken = p('eos-token', '');
		this.cpuGeneratorKey = p('cpu-generator', DEFAULT_CPU_GENERATOR);
		this.cpuJudgeKey = p('cpu-judge', DEFAULT_CPU_JUDGE);
		this.cpuGeneratorUrl = p('cpu-generator-url', '');
		this.cpuJudgeUrl = p('cpu-judge-url', '');
		this.#customMlc = p<CustomMlcModel[]>('custom-mlc-models', []);
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

	/**
	 * Which generator a chosen template file belongs to: the engine and the model as the user picked
	 * it (catalog key, GGUF URL or served id). Another model never sees this model's file.
	 */
	templateFileKey(): string {
		switch (this.engine.current) {
			case 'openai':
				return `openai:${this.modelId.current.trim()}`;
			case 'wllama': {
				const g = this.cpuGenerator();
				return `wllama:${g.entry?.key ?? g.url}`;
			}
			default:
				return `webllm:${this.generatorKey.current}`;
		}
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

	generator(gpu: { shaderF16: boolean }): ModelOption | undefined {
		return modelOption(this.generatorKey.current, 'generator', gpu, this.customModels);
	}

	judge(gpu: { shaderF16: boolean }): ModelOption | undefined {
		return modelOption(this.judgeKey.current, 'judge', gpu, this.customModels);
	}

	/** The user's own MLC models, as stored (invalid or duplicate entries are dropped on read). */
	get customModels(): CustomMlcModel[] {
		return readCustomModels(this.#customMlc.current, catalogIds());
	}

	/**
	 * Add a bring-your-own model, after checking it.
	 * @returns the problems that stopped it (empty when it was added).
	 */
	addCustomModel(input: CustomMlcInput): string[] {
		const current = this.customModels;
		const parsed = parseCustomModel(input, [...catalogIds(), ...current.map((m) => m.id)]);
		if (parsed.model) this.#customMlc.current = [...current, parsed.model];
		return parsed.problems;
	}

	/** Remove one; a picker that had it chosen falls back to the catalog default. */
	removeCustomModel(id: string): void {
		this.#customMlc.current = this.customModels.filter((m) => m.id !== id);
		const key = customKey(id);
		if (this.generatorKey.current === key) this.generatorKey.current = DEFAULT_GENERATOR_KEY;
		if (this.judgeKey.current === key) this.judgeKey.current = DEFAULT_JUDGE_KEY;
	}

	/** The CPU engine's generator: a catalog entry, or a typed GGUF URL (entry undefined). */
	cpuGenerator(): CpuModelChoice {
		return cpuChoice(this.cpuGeneratorKey.current, this.cpuGeneratorUrl.current);
	}

	cpuJudge(): CpuModelChoice {
		return cpuChoice(this.cpuJudgeKey.current, this.cpuJudgeUrl.current);
	}

	/** The generator's engine-specific id ('' when none is chosen); a GGUF URL on the CPU engine. */
	generatorId(gpu: { shaderF16: boolean }): string {
		switch (this.engine.current) {
			case 'openai':
				return this.modelId.current.trim();
			case 'wllama':
				return this.cpuGenerator().url;
			default:
				return this.generator(gpu)?.id ?? '';
		}
	}

	judgeId(gpu: { shaderF16: boolean }): string {
		switch (this.engine.current) {
			case 'openai':
				return this.judgeModelId.current.trim() || this.modelId.current.trim();
			case 'wllama':
				return this.cpuJudge().url;
			default:
				return this.judge(gpu)?.id ?? '';
		}
	}

	/** Where the generator's chat template comes from, or null when nothing says. */
	templateSpec(gpu: { shaderF16: boolean }): TemplateSpec | null {
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
				if (this.engine.current === 'wllama') {
					// A catalog model's original repo; a bring-your-own file carries its own template.
					const g = this.cpuGenerator();
					if (g.entry) return { kind: 'repo', repos: [g.entry.template_repo] };
					return g.url && !ggufUrlProblem(g.url) ? { kind: 'gguf', url: g.url } : null;
				}
				if (this.engine.current === 'webllm') {
					const g = this.generator(gpu);
					// A custom model's weights ship their tokenizer_config.json next to the config.
					if (g?.custom) {
						return { kind: 'url', url: modelFileUrl(g.custom, 'tokenizer_config.json') };
					}
					// The MLC repo first: it ships the tokenizer_config.json of the weights actually run, and
					// it is public, while Llama and gemma originals are gated (no token, no template).
					// The original repo is the fallback; both carry the model's own template.
					return g ? { kind: 'repo', repos: [g.mlc_repo, g.template_repo] } : null;
				}
				const model = this.modelId.current.trim();
				return model.includes('/') ? { kind: 'repo', repos: [model] } : null;
			}
		}
	}

	/**
	 * Default the engine to what this device can use, once its GPU is known: in the browser with
	 * WebGPU, the CPU engine (wllama) without. A choice the user made (or saved) always wins, and
	 * the default is not saved, so a browser that gains WebGPU later defaults to the GPU.
	 */
	adoptDeviceDefault(env: { canRunModels: boolean }): void {
		this.engine.preferDefault(env.canRunModels ? 'webllm' : 'wllama');
	}

	/**
	 * What blocks a start on the engine side, worded for the person filling the form.
	 * `checked: false` means the GPU is still being probed (canRunModels is not known yet).
	 */
	problems(env: { canRunModels: boolean; shaderF16: boolean; checked?: boolean }): string[] {
		const out: string[] = [];
		if (this.engine.current === 'webllm') {
			if (env.checked === false) out.push('Checking whether this device can run models…');
			else if (!env.canRunModels) {
				out.push(
					'This device cannot run models on its GPU (no WebGPU): use “This device (CPU)” or an OpenAI-compatible server.'
				);
			}
			if (!this.generator(env)) out.push('Pick a generator model.');
		} else if (this.engine.current === 'wllama') {
			const g = this.cpuGenerator();
			if (!g.entry) out.push(...prefixed('Generator: ', ggufUrlProblem(g.url)));
			const j = this.cpuJudge();
			if (!j.entry) out.push(...prefixed('Judge: ', ggufUrlProblem(j.url)));
		} else {
			if (!this.baseUrl.current.trim()) out.push('Enter the server URL.');
			if (!this.modelId.current.trim()) out.push('Enter the served model id.');
		}
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
	templateLabel(gpu: { shaderF16: boolean }): string {
		const spec = this.templateSpec(gpu);
		if (!spec) return 'none';
		if (spec.kind === 'repo') return spec.repos[0];
		return spec.kind === 'url' || spec.kind === 'gguf' ? spec.url : spec.name;
	}
}

/** The custom-URL choice in the CPU model pickers. */
export const CUSTOM_GGUF = 'custom';

export interface CpuModelChoice {
	/** Catalog entry; undefined for a bring-your-own URL. */
	entry?: GgufEntry;
	/** The GGUF URL the engine loads ('' when none is typed). */
	url: string;
}

function cpuChoice(key: string, typed: string): CpuModelChoice {
	const entry = key === CUSTOM_GGUF ? undefined : findGguf(key);
	if (entry) return { entry, url: ggufUrl(entry) };
	return { url: typed.trim() };
}

function prefixed(prefix: string, problem: string | null): string[] {
	return problem ? [prefix + problem] : [];
}
