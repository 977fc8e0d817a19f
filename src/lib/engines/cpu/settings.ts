/**
 * The CPU engine's settings: per role, a GGUF catalog key, or CUSTOM_GGUF and the URL the user
 * typed (a bring-your-own file).
 */
import type { TemplateSpec } from '../../probe/templateSource.ts';
import type {
	Box,
	ClassroomModel,
	EngineModels,
	GpuFacts,
	ModelDownload,
	Persist,
	SweepGenerator,
	SweepOption
} from '../provider.ts';
import {
	cpuCanCoLoad,
	DEFAULT_CPU_GENERATOR,
	DEFAULT_CPU_JUDGE,
	findGguf,
	GGUF_CATALOG,
	ggufUrl,
	ggufUrlProblem,
	type GgufEntry
} from './catalog.ts';

/** The custom-URL choice in the CPU model pickers. */
export const CUSTOM_GGUF = 'custom';

export interface CpuModelChoice {
	/** Catalog entry; undefined for a bring-your-own URL. */
	entry?: GgufEntry;
	/** The GGUF URL the engine loads ('' when none is typed). */
	url: string;
}

export class CpuModels implements EngineModels {
	readonly generatorKey: Box<string>;
	readonly judgeKey: Box<string>;
	readonly generatorUrl: Box<string>;
	readonly judgeUrl: Box<string>;

	constructor(persist: Persist) {
		this.generatorKey = persist('cpu-generator', DEFAULT_CPU_GENERATOR);
		this.judgeKey = persist('cpu-judge', DEFAULT_CPU_JUDGE);
		this.generatorUrl = persist('cpu-generator-url', '');
		this.judgeUrl = persist('cpu-judge-url', '');
	}

	/** The generator: a catalog entry, or a typed GGUF URL (entry undefined). */
	generator(): CpuModelChoice {
		return cpuChoice(this.generatorKey.current, this.generatorUrl.current);
	}

	judge(): CpuModelChoice {
		return cpuChoice(this.judgeKey.current, this.judgeUrl.current);
	}

	/** The models a run loads, generator first. */
	chosen(judgeNeeded: boolean): CpuModelChoice[] {
		return [this.generator(), ...(judgeNeeded ? [this.judge()] : [])];
	}

	generatorId(): string {
		return this.generator().url;
	}

	judgeId(): string {
		return this.judge().url;
	}

	pickedGenerator(): string {
		const g = this.generator();
		return g.entry?.key ?? g.url;
	}

	defaultTemplate(): TemplateSpec | null {
		// A catalog model's original repo; a bring-your-own file carries its own template.
		const g = this.generator();
		if (g.entry) return { kind: 'repo', repos: [g.entry.template_repo] };
		return g.url && !ggufUrlProblem(g.url) ? { kind: 'gguf', url: g.url } : null;
	}

	defaultTemplateRepo(): string {
		return this.generator().entry?.template_repo ?? '';
	}

	problems(): string[] {
		const g = this.generator();
		const j = this.judge();
		return [
			...(g.entry ? [] : prefixed('Generator: ', ggufUrlProblem(g.url))),
			...(j.entry ? [] : prefixed('Judge: ', ggufUrlProblem(j.url)))
		];
	}

	knownContextWindow(): number | undefined {
		return undefined;
	}

	thinking(): boolean | null {
		return null;
	}

	downloads(_device: GpuFacts, judgeNeeded: boolean): ModelDownload[] {
		return this.chosen(judgeNeeded).map((m) => ({
			id: m.url,
			download_MB: m.entry?.download_MB ?? null
		}));
	}

	/** The catalog's generators; the user's own are typed as URLs. */
	sweepOptions(): SweepOption[] {
		return GGUF_CATALOG.filter((e) => e.roles.includes('generator')).map((e) => ({
			id: ggufUrl(e),
			label: `${e.label} · ${e.quant}`,
			download_MB: e.download_MB
		}));
	}

	/** A catalog entry's URL (its original repo's template) or a typed one (the file's own). */
	sweepGenerator(id: string): SweepGenerator | null {
		const entry = GGUF_CATALOG.find((e) => ggufUrl(e) === id);
		if (entry)
			return {
				id,
				download_MB: entry.download_MB,
				template: { kind: 'repo', repos: [entry.template_repo] },
				context_window: entry.context_window
			};
		return ggufUrlProblem(id)
			? null
			: { id, download_MB: null, template: { kind: 'gguf', url: id } };
	}

	/** The suggested generator, for both roles: one small download, one model in memory. */
	classroom(): ClassroomModel | null {
		const entry = findGguf(DEFAULT_CPU_GENERATOR);
		if (!entry) return null;
		return {
			id: ggufUrl(entry),
			label: `${entry.label} · ${entry.quant}`,
			download_MB: entry.download_MB,
			apply: () => {
				this.generatorKey.current = DEFAULT_CPU_GENERATOR;
				this.judgeKey.current = DEFAULT_CPU_GENERATOR;
			}
		};
	}

	cacheIds(_device: GpuFacts, judgeNeeded: boolean): string[] {
		return this.chosen(judgeNeeded)
			.map((m) => m.url)
			.filter((u) => u !== '');
	}

	shareMemory(_device: GpuFacts, judgeNeeded: boolean): boolean {
		return cpuCanCoLoad(this.chosen(judgeNeeded).map((m) => m.url));
	}

	canCoLoad(models: string[]): boolean {
		return cpuCanCoLoad(models);
	}
}

function cpuChoice(key: string, typed: string): CpuModelChoice {
	const entry = key === CUSTOM_GGUF ? undefined : findGguf(key);
	if (entry) return { entry, url: ggufUrl(entry) };
	return { url: typed.trim() };
}

function prefixed(prefix: string, problem: string | null): string[] {
	return problem ? [prefix + problem] : [];
}
