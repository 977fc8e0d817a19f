/**
 * What a device without WebGPU gets instead, in words: the CPU engine and the models it runs, read
 * from its catalog so the sentence never names a model the engine does not offer.
 */
import { GGUF_CATALOG, type GgufRole } from '../engines/cpu/catalog.ts';

/** What the CPU engine is and what that costs. */
export const CPU_ENGINE_MEANING =
	'llama.cpp in WebAssembly, on the processor: slower than a GPU, so small models only';

/** "Qwen2.5 0.5B Instruct, Qwen3 0.6B and SmolLM2 360M Instruct": the catalog's models for `role`. */
export function cpuModelNames(role: GgufRole): string {
	const names = [
		...new Set(GGUF_CATALOG.filter((e) => e.roles.includes(role)).map((e) => e.label))
	];
	if (names.length <= 1) return names.join('');
	return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Which models, answering and judging: "Qwen2.5 0.5B Instruct, … answer; Qwen2.5 1.5B Instruct judges". */
export function cpuEngineModels(): string {
	return `${cpuModelNames('generator')} answer; ${cpuModelNames('judge')} judges`;
}
