/** What a run is given: its engines, its store, its template, and the shell's clocks and extras. */
import type { Engine } from './engine.ts';
import type { NlpSupport } from './scoring/index.ts';
import type { ManifestExtras } from './records.ts';
import type { RunStore } from './store.ts';
import type { ChatTemplate } from './template.ts';

export interface ProbeContext {
	/** Generates the assistant answers and the user turns. */
	engine: Engine;
	/** Runs the LLM judge; may be the same object as `engine`, and then the models share a device. */
	judge: Engine;
	/** Every answer and record goes here the moment it exists, so a stopped run loses nothing. */
	store: RunStore;
	/** The generator's own chat template: both turns are rendered with it, as raw completions. */
	template: ChatTemplate;
	/** Cancels the run; stored work stays and the same config resumes it. */
	signal?: AbortSignal;
	/** Monotonic milliseconds for rates and ETA (tests pin it). */
	now?: () => number;
	/** ISO time for created_at stamps (tests pin it, for byte-identical output). */
	timestamp?: () => string;
	/** Requests in flight; defaults to the engine's own max_concurrency (web-llm: 1). */
	concurrency?: number;
	/** Recorded in the manifest. */
	appVersion?: string;
	/** Extra manifest fields the shell knows (web-llm version, GPU adapter). */
	manifestExtras?: ManifestExtras;
	/**
	 * NLTK's English data for the IFBench instructions that split sentences or tag words, loaded
	 * by the shell before the run (or why it could not be); without it those items are unscored.
	 */
	nlp?: NlpSupport;
}
