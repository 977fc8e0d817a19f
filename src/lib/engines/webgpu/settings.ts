/**
 * The WebGPU engine's settings: a generator and a judge from the catalog (keys, not ids: the
 * variant follows the GPU's shader-f16 support) and the user's own MLC models.
 */
import type { TemplateSpec } from '../../probe/templateSource.ts';
import type {
	Box,
	ClassroomModel,
	DeviceFacts,
	EngineModels,
	GpuFacts,
	ModelDownload,
	Persist,
	SweepGenerator,
	SweepOption
} from '../provider.ts';
import { customKey, modelFileUrl, parseCustomModel, readCustomModels } from './custom.ts';
import type { CustomMlcInput, CustomMlcModel } from './custom.ts';
import { catalogIds, modelOption, modelOptions, pairFit, SUGGESTED } from './models.ts';
import type { ModelOption, PairFit } from './models.ts';

/** Catalog keys the pickers start with. */
export const DEFAULT_GENERATOR_KEY = SUGGESTED.generator.key;
export const DEFAULT_JUDGE_KEY = SUGGESTED.judge.key;
/** The classroom preset's one model: the suggested generator, small and its template shipped. */
export const CLASSROOM_KEY = SUGGESTED.generator.key;

export class WebgpuModels implements EngineModels {
	readonly generatorKey: Box<string>;
	readonly judgeKey: Box<string>;
	/** Bring-your-own MLC models (custom.ts), offered in both pickers after the catalog. */
	readonly #customMlc: Box<CustomMlcModel[]>;

	constructor(persist: Persist) {
		this.generatorKey = persist('generator', DEFAULT_GENERATOR_KEY);
		this.judgeKey = persist('judge', DEFAULT_JUDGE_KEY);
		this.#customMlc = persist<CustomMlcModel[]>('custom-mlc-models', []);
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

	/** Whether the chosen pair stays on the GPU together; null when only one model is needed. */
	fit(device: GpuFacts, judgeNeeded: boolean): PairFit | null {
		const [g, j] = [this.generator(device), this.judge(device)];
		return g && j && judgeNeeded ? pairFit([g.id, j.id], this.customModels) : null;
	}

	generatorId(device: GpuFacts): string {
		return this.generator(device)?.id ?? '';
	}

	judgeId(device: GpuFacts): string {
		return this.judge(device)?.id ?? '';
	}

	pickedGenerator(): string {
		return this.generatorKey.current;
	}

	defaultTemplate(device: GpuFacts): TemplateSpec | null {
		const g = this.generator(device);
		return g ? templateOf(g) : null;
	}

	defaultTemplateRepo(device: GpuFacts): string {
		return this.generator(device)?.template_repo ?? '';
	}

	problems(device: DeviceFacts): string[] {
		const out: string[] = [];
		if (device.checked === false) out.push('Checking whether this device can run models…');
		else if (!device.canRunModels) {
			out.push(
				'This device cannot run models on its GPU (no WebGPU): use “This device (CPU)” or an OpenAI-compatible server.'
			);
		}
		if (!this.generator(device)) out.push('Pick a generator model.');
		return out;
	}

	knownContextWindow(device: GpuFacts): number | undefined {
		return this.generator(device)?.context_window;
	}

	thinking(device: GpuFacts): boolean | null {
		return this.generator(device)?.thinking ?? null;
	}

	/** The catalog's models in this GPU's variant, then the user's own. */
	sweepOptions(device: GpuFacts): SweepOption[] {
		return modelOptions('generator', device, this.customModels).map((o) => ({
			id: o.id,
			label: `${o.label} · ${o.quant}`,
			download_MB: o.download_MB
		}));
	}

	/** An offered model with the template a single run of it reads (templateOf). */
	sweepGenerator(id: string, device: GpuFacts): SweepGenerator | null {
		const o = modelOptions('generator', device, this.customModels).find((m) => m.id === id);
		return o
			? {
					id,
					download_MB: o.download_MB,
					template: templateOf(o),
					context_window: o.context_window
				}
			: null;
	}

	classroom(device: GpuFacts): ClassroomModel | null {
		const m = modelOption(CLASSROOM_KEY, 'generator', device);
		if (!m) return null;
		return {
			id: m.id,
			label: `${m.label} · ${m.quant}`,
			download_MB: m.download_MB,
			...(m.vram_MB === null ? {} : { at_most_MB: Math.round(m.vram_MB) }),
			apply: () => {
				this.generatorKey.current = CLASSROOM_KEY;
				this.judgeKey.current = CLASSROOM_KEY;
			}
		};
	}

	downloads(device: GpuFacts, judgeNeeded: boolean): ModelDownload[] {
		const models = [this.generator(device), judgeNeeded ? this.judge(device) : undefined];
		return models
			.filter((m) => m !== undefined)
			.map((m) => ({ id: m.id, download_MB: m.download_MB }));
	}

	cacheIds(device: GpuFacts): string[] {
		return modelOptions('generator', device, this.customModels).map((o) => o.id);
	}

	shareMemory(device: GpuFacts, judgeNeeded: boolean): boolean {
		return this.fit(device, judgeNeeded)?.fits ?? true;
	}

	canCoLoad(models: string[]): boolean {
		return pairFit(models, this.customModels).fits;
	}
}

/** Where a model's chat template comes from when the user names none. */
function templateOf(g: ModelOption): TemplateSpec {
	// A custom model's weights ship their tokenizer_config.json next to the config.
	if (g.custom) return { kind: 'url', url: modelFileUrl(g.custom, 'tokenizer_config.json') };
	// The MLC repo first: it ships the tokenizer_config.json of the weights actually run, and
	// it is public, while Llama and gemma originals are gated (no token, no template).
	// The original repo is the fallback; both carry the model's own template.
	return { kind: 'repo', repos: [g.mlc_repo, g.template_repo] };
}
