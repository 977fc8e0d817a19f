/**
 * The curated in-browser model catalog (static/models.json, pinned to web-llm 0.2.86): which
 * web-llm ids exist per model and quantization, what they need, and which chat template they use.
 * The page reads it without loading web-llm; a unit test checks it against prebuiltAppConfig.
 */
import { AppError } from '../../errors/appError.ts';
import modelsJson from '../../../../static/models.json' with { type: 'json' };

export const QUANTS = ['q4f16_1', 'q4f32_1'] as const;
export type Quant = (typeof QUANTS)[number];
export type ModelRole = 'generator' | 'judge';

export interface CatalogVariant {
	quant: Quant;
	/** web-llm model_id, as in prebuiltAppConfig. */
	id: string;
	vram_required_MB: number;
	context_window: number;
	/** Hugging Face repo holding the MLC weights, e.g. "mlc-ai/Qwen3-0.6B-q4f16_1-MLC". */
	mlc_repo: string;
	/**
	 * The compiled model library (.wasm) as prebuiltAppConfig names it (on GitHub raw), so a model
	 * mirror (`user-turn-probe mirror`) can copy it without web-llm.
	 */
	model_lib: string;
	/** null: unknown (prebuiltAppConfig does not say, and we do not guess). */
	download_MB: number | null;
	low_resource_required: boolean;
	required_features: string[];
}

export interface CatalogEntry {
	key: string;
	label: string;
	family: string;
	params_B: number;
	/** Original model repo whose chat template the probe renders, e.g. "Qwen/Qwen3-0.6B". */
	template_repo: string;
	/** Template understands enable_thinking (Qwen3 family). */
	thinking: boolean;
	/** Suggested uses; judges are the larger instruction followers. */
	roles: ModelRole[];
	variants: CatalogVariant[];
}

export interface Catalog {
	webllm_version: string;
	notes: string[];
	models: CatalogEntry[];
}

/**
 * Planning budget for resident weights + KV cache when the generator and judge share the GPU.
 * WebGPU does not expose VRAM size, so this is a conservative default for laptops and integrated
 * GPUs: a small generator with a small judge co-load, bigger pairs are phased instead.
 */
export const DEFAULT_VRAM_BUDGET_MB = 4096;

export class CatalogError extends AppError {
	constructor(message: string) {
		super(message, { code: 'catalog' });
		this.name = 'CatalogError';
	}
}

/**
 * Validate the catalog's shape, so a bad edit to models.json fails loudly and early.
 * @throws CatalogError naming the first bad field.
 */
export function parseCatalog(json: unknown): Catalog {
	const doc = json as Partial<Catalog> | null;
	if (!doc || typeof doc.webllm_version !== 'string' || !Array.isArray(doc.models)) {
		throw new CatalogError('models.json needs webllm_version and a models array.');
	}
	for (const entry of doc.models) {
		const where = `models.json entry ${JSON.stringify(entry?.key)}`;
		if (typeof entry?.key !== 'string' || typeof entry.template_repo !== 'string') {
			throw new CatalogError(`${where}: key and template_repo must be strings.`);
		}
		if (!Array.isArray(entry.variants) || entry.variants.length === 0) {
			throw new CatalogError(`${where}: needs at least one variant.`);
		}
		for (const v of entry.variants) {
			if (!QUANTS.includes(v?.quant) || typeof v.id !== 'string') {
				throw new CatalogError(`${where}: variant quant must be one of ${QUANTS.join(', ')}.`);
			}
			if (typeof v.mlc_repo !== 'string' || typeof v.model_lib !== 'string') {
				throw new CatalogError(`${where}: ${v.id} needs mlc_repo and model_lib strings.`);
			}
			if (!(v.vram_required_MB > 0) || !(v.context_window > 0)) {
				throw new CatalogError(
					`${where}: ${v.id} needs positive vram_required_MB and context_window.`
				);
			}
		}
	}
	return { notes: [], ...doc } as Catalog;
}

let cached: Catalog | undefined;

/** The bundled catalog, validated on first use. */
export function getCatalog(): Catalog {
	cached ??= parseCatalog(modelsJson);
	return cached;
}

export function findVariant(
	id: string,
	catalog: Catalog = getCatalog()
): { entry: CatalogEntry; variant: CatalogVariant } | undefined {
	for (const entry of catalog.models) {
		const variant = entry.variants.find((v) => v.id === id);
		if (variant) return { entry, variant };
	}
	return undefined;
}

/**
 * Choose the variant to load on this GPU. q4f16 is smaller and faster but its shaders need the
 * shader-f16 feature; without it, q4f32 is the only variant that runs.
 */
export function pickVariant(
	entry: CatalogEntry,
	gpu: { shaderF16: boolean }
): { variant: CatalogVariant; reason: string } {
	const byQuant = (q: Quant) => entry.variants.find((v) => v.quant === q);
	const f16 = byQuant('q4f16_1');
	const f32 = byQuant('q4f32_1');
	if (gpu.shaderF16 && f16) {
		return { variant: f16, reason: 'q4f16_1: this GPU supports shader-f16 (smaller and faster).' };
	}
	if (f32) {
		return {
			variant: f32,
			reason: gpu.shaderF16
				? 'q4f32_1: the only variant in the catalog.'
				: 'q4f32_1: this GPU lacks shader-f16, which the q4f16 variant needs.'
		};
	}
	// Only an f16 variant exists: return it with a warning rather than nothing.
	const only = f16 ?? entry.variants[0];
	return {
		variant: only,
		reason: `${only.quant}: no q4f32 variant exists, and it may fail without shader-f16.`
	};
}

export interface BudgetFit {
	fits: boolean;
	total_MB: number;
	budget_MB: number;
	/** Ids whose VRAM need is unknown; any unknown id means "does not fit" (phase instead). */
	unknown: string[];
}

/**
 * A model's GPU memory need: the catalog's figure, else the one its record in the app config gives
 * (a bring-your-own model may state it); undefined when neither says. The engine's can_co_load and
 * set-up's fit both read it, so the two never disagree on whether a run is phased.
 */
export function vramOf(
	id: string,
	appConfig?: { model_list: readonly { model_id: string; vram_required_MB?: number }[] }
): number | undefined {
	const record = appConfig?.model_list.find((r) => r.model_id === id);
	return findVariant(id)?.variant.vram_required_MB ?? record?.vram_required_MB;
}

/** Do these models fit on the GPU together? Duplicates count once (one model, two roles). */
export function fitsBudget(
	ids: string[],
	budgetMB: number = DEFAULT_VRAM_BUDGET_MB,
	vramOf: (id: string) => number | undefined = (id) => findVariant(id)?.variant.vram_required_MB
): BudgetFit {
	let total = 0;
	const unknown: string[] = [];
	for (const id of new Set(ids)) {
		const mb = vramOf(id);
		if (mb === undefined) unknown.push(id);
		else total += mb;
	}
	return {
		fits: unknown.length === 0 && total <= budgetMB,
		total_MB: total,
		budget_MB: budgetMB,
		unknown
	};
}
