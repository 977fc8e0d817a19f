/**
 * The in-browser model catalog as the pickers show it: per model, the variant this GPU can run,
 * its VRAM need and download size, and whether a generator and judge fit on the GPU together.
 */
import {
	DEFAULT_VRAM_BUDGET_MB,
	fitsBudget,
	getCatalog,
	pickVariant,
	type CatalogEntry,
	type ModelRole,
	vramOf
} from './catalog.ts';
import { customAppConfig, customKey, type CustomMlcModel } from './custom.ts';

export interface ModelOption {
	key: string;
	label: string;
	/** The web-llm model id of the variant chosen for this GPU. */
	id: string;
	quant: string;
	/** null: not known (a custom model). */
	vram_MB: number | null;
	/** Tokens the model's context holds (web-llm's context_window_size for this variant). */
	context_window: number;
	download_MB: number | null;
	/** null: not known (a custom model). */
	params_B: number | null;
	thinking: boolean;
	template_repo: string;
	mlc_repo: string;
	/** Why this variant (e.g. no shader-f16). */
	reason: string;
	/** One model per role is suggested (the classroom default), with why. */
	suggested: boolean;
	/** Present for a model the user added (bring your own MLC model). */
	custom?: CustomMlcModel;
	suggested_reason?: string;
}

/**
 * The classroom defaults: a generator and a judge that fit the planning budget together on any GPU
 * (q4f16 with shader-f16, q4f32 without), so the default set-up never has to phase them. A unit test
 * checks both quantizations against DEFAULT_VRAM_BUDGET_MB.
 */
export const SUGGESTED: Record<ModelRole, { key: string; reason: string }> = {
	generator: {
		key: 'qwen2.5-0.5b-instruct',
		reason:
			'Suggested: fits beside the suggested judge in the 4,096 MB budget on any GPU, and its chat template ships with the app (no Hugging Face needed for it).'
	},
	judge: {
		key: 'qwen2.5-3b-instruct',
		reason:
			'Suggested: a judge-sized model that fits beside the suggested generator in the 4,096 MB budget on any GPU, so both stay loaded.'
	}
};

/** The catalog's models, then the user's own (custom.ts). */
export function modelOptions(
	role: ModelRole,
	gpu: { shaderF16: boolean },
	custom: readonly CustomMlcModel[] = []
): ModelOption[] {
	return [
		...getCatalog().models.map((entry) => toOption(entry, role, gpu)),
		...custom.map(customOption)
	];
}

export function modelOption(
	key: string,
	role: ModelRole,
	gpu: { shaderF16: boolean },
	custom: readonly CustomMlcModel[] = []
): ModelOption | undefined {
	const entry = getCatalog().models.find((m) => m.key === key);
	if (entry) return toOption(entry, role, gpu);
	const own = custom.find((m) => customKey(m.id) === key);
	return own && customOption(own);
}

/** Every id the catalog lists (a custom model may not reuse one). */
export function catalogIds(): string[] {
	return getCatalog().models.flatMap((m) => m.variants.map((v) => v.id));
}

function customOption(model: CustomMlcModel): ModelOption {
	return {
		key: customKey(model.id),
		label: model.label,
		id: model.id,
		quant: 'your model',
		vram_MB: null,
		context_window: model.context_window,
		download_MB: null,
		params_B: null,
		thinking: false,
		template_repo: '',
		mlc_repo: '',
		reason: 'Added by you: weights and model library from your URLs.',
		suggested: false,
		custom: model
	};
}

function toOption(entry: CatalogEntry, role: ModelRole, gpu: { shaderF16: boolean }): ModelOption {
	const { variant, reason } = pickVariant(entry, gpu);
	return {
		key: entry.key,
		label: entry.label,
		id: variant.id,
		quant: variant.quant,
		vram_MB: variant.vram_required_MB,
		context_window: variant.context_window,
		download_MB: variant.download_MB,
		params_B: entry.params_B,
		thinking: entry.thinking,
		template_repo: entry.template_repo,
		mlc_repo: variant.mlc_repo,
		reason,
		suggested: entry.key === SUGGESTED[role].key,
		...(entry.key === SUGGESTED[role].key ? { suggested_reason: SUGGESTED[role].reason } : {})
	};
}

export interface PairFit {
	fits: boolean;
	total_MB: number;
	budget_MB: number;
	/** Ids whose GPU memory need is not known (custom models): they never count as fitting. */
	unknown: string[];
}

/**
 * Can generator and judge be resident together? If not, the run phases them (slower, same result).
 * @param custom the user's own models, whose records the engine reads their memory need from
 */
export function pairFit(
	ids: string[],
	custom: readonly CustomMlcModel[] = [],
	budgetMB = DEFAULT_VRAM_BUDGET_MB
): PairFit {
	const appConfig = customAppConfig(custom);
	const fit = fitsBudget(ids, budgetMB, (id) => vramOf(id, appConfig));
	return { fits: fit.fits, total_MB: fit.total_MB, budget_MB: fit.budget_MB, unknown: fit.unknown };
}
