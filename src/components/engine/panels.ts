/**
 * Each engine's model panel in set-up and the playground, keyed like the engine registry: a new
 * engine's provider does not type-check here until it has a panel.
 */
import type { Component } from 'svelte';
import type { EngineKind } from '$lib/engines/registry';
import type { ChatTemplate } from '$lib/probe/template';
import type { TemplateSpec } from '$lib/setup/templates';
import type { EngineSettings } from '$lib/state/settings.svelte';
import CpuModels from './CpuModels.svelte';
import ServerModels from './ServerModels.svelte';
import WebgpuModels from './WebgpuModels.svelte';

/** A checked template as set-up shows it: the user header, its hash and where it came from. */
export type ShownTemplate = Pick<ChatTemplate, 'sha256' | 'repo' | 'provenance' | 'server'> & {
	header: string;
};

/** What every panel is given; each uses what its engine needs. */
export interface EnginePanelProps {
	settings: EngineSettings;
	/** `checked: false` while the GPU is still being probed. */
	gpu: { canRunModels: boolean; shaderF16: boolean; checked?: boolean };
	/** By model id or file URL; absent means not asked yet. */
	cached: Readonly<Record<string, boolean>>;
	/** Whether an LLM judge will be asked (hides the judge pickers otherwise). */
	judgeNeeded: boolean;
	/** Delete a cached model's files (absent: no Delete buttons, as in the playground). */
	onDeleteModel?: (id: string) => Promise<void>;
	/** The models a server serves (its /v1/models), for "Check server". */
	listModels: (baseUrl: string, apiKey?: string, signal?: AbortSignal) => Promise<string[]>;
	/** Loads the chosen chat template, for "Check server". */
	loadTemplate: (spec: TemplateSpec) => Promise<ChatTemplate>;
}

export const ENGINE_PANELS: Record<EngineKind, Component<EnginePanelProps>> = {
	webgpu: WebgpuModels,
	cpu: CpuModels,
	server: ServerModels
};
