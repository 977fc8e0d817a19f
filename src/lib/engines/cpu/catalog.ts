/**
 * Small GGUF models for the CPU engine. A model is named by the URL of its GGUF file (the id the
 * engine loads and the run records); bring-your-own models are just other URLs.
 *
 * Facts only: repo and file follow each repo's published naming; download sizes are null
 * (unknown) because they could not be checked from where this catalog was written, and the UI
 * says the size is not known yet rather than guess (a model mirror's index.json gives it). The context is the model card's training context; the
 * engine allocates DEFAULT_N_CTX of it.
 */
export const WLLAMA_VERSION = '3.8.1';

export type GgufRole = 'generator' | 'judge';

export interface GgufEntry {
	key: string;
	label: string;
	/** Hugging Face repo holding the GGUF files. */
	repo: string;
	/** File in the repo's main branch. */
	file: string;
	quant: string;
	params_B: number;
	/** null: unknown. */
	download_MB: number | null;
	/** Training context in tokens (from the model card). */
	context_window: number;
	/** Original repo whose tokenizer_config.json carries the chat template the probe renders. */
	template_repo: string;
	thinking: boolean;
	roles: GgufRole[];
}

export const GGUF_CATALOG: readonly GgufEntry[] = [
	{
		key: 'qwen2.5-0.5b-instruct-q4_k_m',
		label: 'Qwen2.5 0.5B Instruct',
		repo: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
		file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
		quant: 'Q4_K_M',
		params_B: 0.49,
		download_MB: null,
		context_window: 32768,
		template_repo: 'Qwen/Qwen2.5-0.5B-Instruct',
		thinking: false,
		roles: ['generator']
	},
	{
		key: 'qwen2.5-0.5b-instruct-q8_0',
		label: 'Qwen2.5 0.5B Instruct',
		repo: 'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
		file: 'qwen2.5-0.5b-instruct-q8_0.gguf',
		quant: 'Q8_0',
		params_B: 0.49,
		download_MB: null,
		context_window: 32768,
		template_repo: 'Qwen/Qwen2.5-0.5B-Instruct',
		thinking: false,
		roles: ['generator']
	},
	{
		key: 'qwen3-0.6b-q8_0',
		label: 'Qwen3 0.6B',
		repo: 'Qwen/Qwen3-0.6B-GGUF',
		file: 'Qwen3-0.6B-Q8_0.gguf',
		quant: 'Q8_0',
		params_B: 0.6,
		download_MB: null,
		context_window: 32768,
		template_repo: 'Qwen/Qwen3-0.6B',
		thinking: true,
		roles: ['generator']
	},
	{
		key: 'smollm2-360m-instruct-q8_0',
		label: 'SmolLM2 360M Instruct',
		repo: 'HuggingFaceTB/SmolLM2-360M-Instruct-GGUF',
		file: 'smollm2-360m-instruct-q8_0.gguf',
		quant: 'Q8_0',
		params_B: 0.36,
		download_MB: null,
		context_window: 8192,
		template_repo: 'HuggingFaceTB/SmolLM2-360M-Instruct',
		thinking: false,
		roles: ['generator']
	},
	{
		key: 'qwen2.5-1.5b-instruct-q4_k_m',
		label: 'Qwen2.5 1.5B Instruct',
		repo: 'Qwen/Qwen2.5-1.5B-Instruct-GGUF',
		file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
		quant: 'Q4_K_M',
		params_B: 1.5,
		download_MB: null,
		context_window: 32768,
		template_repo: 'Qwen/Qwen2.5-1.5B-Instruct',
		thinking: false,
		roles: ['judge']
	}
];

export const DEFAULT_CPU_GENERATOR = 'qwen2.5-0.5b-instruct-q4_k_m';
export const DEFAULT_CPU_JUDGE = 'qwen2.5-1.5b-instruct-q4_k_m';

/**
 * Whether these models stay loaded together on the CPU: only one model, in one role or both. Each
 * model is a wasm runtime with its own memory; two on a laptop risk running out of it. The engine's
 * can_co_load and set-up's estimate both ask this.
 */
export function cpuCanCoLoad(models: readonly string[]): boolean {
	return new Set(models).size <= 1;
}

/** The URL the engine loads for a catalog entry. */
export function ggufUrl(entry: Pick<GgufEntry, 'repo' | 'file'>): string {
	return `https://huggingface.co/${entry.repo}/resolve/main/${entry.file}`;
}

export function findGguf(key: string): GgufEntry | undefined {
	return GGUF_CATALOG.find((e) => e.key === key);
}

/**
 * Why a typed GGUF URL cannot be loaded, or null when it can: http(s), and the path ends in .gguf
 * (wllama refuses anything else; a split model is named by its first shard).
 */
export function ggufUrlProblem(url: string): string | null {
	const text = url.trim();
	if (!text) return 'Enter the URL of a .gguf file.';
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		return `"${text}" is not a URL.`;
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		return 'The GGUF URL must start with https:// (or http:// for a local server).';
	}
	if (!/\.gguf$/i.test(parsed.pathname)) {
		return 'The URL must point at the .gguf file itself (for a Hugging Face repo: …/resolve/main/<file>.gguf).';
	}
	return null;
}
