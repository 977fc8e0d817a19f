/**
 * The set-up view's state: the run form (remembered between visits once a run starts), the dataset
 * choice, the template check, and the start action with its progress and errors.
 */
import { isDatasetName, OFFLINE_DATASET, type DatasetName } from '../datasets/registry.ts';
import { DatasetError, DatasetImportError } from '../datasets/errors.ts';
import { AbortError } from '../errors/appError.ts';
import { errorText } from '../errors/describe.ts';
import { APP_CHOICES, errorTextWithFix } from '../setup/fixes.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { DatasetItem } from '../probe/types.ts';
import {
	DEFAULT_FORM,
	conditionCount,
	formProblems,
	type RunFormValues
} from '../setup/runForm.ts';
import type { TemplateSpec } from '../setup/templates.ts';
import { readTemplateCheck, type TemplateCheck } from '../setup/templateCheck.ts';

export type { TemplateCheck } from '../setup/templateCheck.ts';
import { Persisted, browserStorage, type KeyValueStorage } from './persisted.svelte.ts';

export type DatasetChoice = DatasetName | 'upload';

export interface UploadedDataset {
	name: string;
	items: DatasetItem[];
}

export type StartStep = 'idle' | 'server' | 'template' | 'dataset' | 'storing' | 'failed';

export class SetupState {
	readonly values: Persisted<RunFormValues>;
	readonly dataset: Persisted<DatasetChoice>;
	#upload = $state.raw<UploadedDataset | null>(null);
	#uploadProblems = $state.raw<string[]>([]);
	#template = $state.raw<TemplateCheck | null>(null);
	/** The last check's failure, with the choice it was made for (see templateErrorFor). */
	#templateError = $state.raw<{ choice: string; message: string } | null>(null);
	#templateBusy = $state(false);
	#templateAbort: AbortController | null = null;
	#step = $state<StartStep>('idle');
	#error = $state<string | null>(null);
	/** The last start failed because a published dataset's host could not be reached at all. */
	#datasetUnreachable = $state(false);
	#rows = $state.raw<{ done: number; total: number } | null>(null);
	#abort: AbortController | null = null;

	constructor(storage: KeyValueStorage | undefined = browserStorage()) {
		this.values = new Persisted('utp:run-form', { ...DEFAULT_FORM }, storage);
		this.dataset = new Persisted<DatasetChoice>('utp:dataset', OFFLINE_DATASET, storage);
		// A choice remembered from a version that offered a dataset this one does not.
		const remembered: unknown = this.dataset.current;
		if (remembered !== 'upload' && !isDatasetName(remembered)) {
			this.dataset.current = OFFLINE_DATASET;
		}
	}

	/** The form values (a deep rune proxy: bind inputs to its fields). */
	get valuesNow(): RunFormValues {
		return this.values.current;
	}
	/**
	 * Getters, not $derived: this object outlives the view that first made it, and a derived
	 * created under a component goes inert when that component is destroyed.
	 */
	get problems(): string[] {
		return formProblems(this.valuesNow);
	}
	get conditions(): number {
		return conditionCount(this.valuesNow);
	}
	get upload(): UploadedDataset | null {
		return this.#upload;
	}
	get uploadProblems(): string[] {
		return this.#uploadProblems;
	}
	get template(): TemplateCheck | null {
		return this.#template;
	}
	/** The last check's failure, whatever the choice now (a start reads its own check's). */
	get templateError(): string | null {
		return this.#templateError?.message ?? null;
	}
	/**
	 * The last check's failure while `choice` is the one it was made for: another engine, model or
	 * source shows none, so no error stands beside a choice it does not apply to.
	 */
	templateErrorFor(choice: string): string | null {
		return this.#templateError?.choice === choice ? this.#templateError.message : null;
	}
	get templateBusy(): boolean {
		return this.#templateBusy;
	}
	get step(): StartStep {
		return this.#step;
	}
	get busy(): boolean {
		return (
			this.#step === 'server' ||
			this.#step === 'template' ||
			this.#step === 'dataset' ||
			this.#step === 'storing'
		);
	}
	get error(): string | null {
		return this.#error;
	}
	/** Whether the last failed start could not reach the dataset's host (offer the Demo dataset). */
	get datasetUnreachable(): boolean {
		return this.#datasetUnreachable;
	}

	/** Switch to the built-in offline dataset after a failed download, clearing that failure. */
	useDemoDataset(): void {
		this.dataset.current = OFFLINE_DATASET;
		this.#error = null;
		this.#datasetUnreachable = false;
		if (this.#step === 'failed') this.#step = 'idle';
	}
	/** Dataset rows fetched so far while a published set downloads. */
	get rows(): { done: number; total: number } | null {
		return this.#rows;
	}

	/** Parse the user's file; every problem is kept for display, with its line or row. */
	setUpload(
		name: string,
		text: string,
		parse: (text: string, name: string) => DatasetItem[]
	): void {
		try {
			this.#upload = { name, items: parse(text, name) };
			this.#uploadProblems = [];
		} catch (err) {
			this.#upload = null;
			this.#uploadProblems = err instanceof DatasetImportError ? err.problems : [errorText(err)];
		}
	}

	/**
	 * The template for `spec`, loading it unless the last check was of the same spec (a server's is
	 * always asked again). A check still
	 * running is stopped first; `load` gets the signal that cancelTemplateCheck aborts. `choice`
	 * names what the check was for (EngineSettings.templateChoice), which its error belongs to.
	 * @returns null when it failed (templateError says why) or was cancelled.
	 */
	async checkTemplate(
		spec: TemplateSpec | null,
		load: (spec: TemplateSpec, signal: AbortSignal) => Promise<ChatTemplate>,
		choice: string = JSON.stringify(spec)
	): Promise<TemplateCheck | null> {
		this.#templateAbort?.abort();
		if (!spec) {
			this.#template = null;
			this.#templateError = { choice, message: 'Choose where the chat template comes from.' };
			return null;
		}
		const key = JSON.stringify(spec);
		// A server's template (its /props) is asked again each time: the server may have been
		// restarted with another model since, and an old answer would be shown as its template.
		if (this.#template?.spec === key && spec.kind !== 'server') return this.#template;
		const abort = new AbortController();
		this.#templateAbort = abort;
		this.#templateBusy = true;
		this.#templateError = null;
		try {
			const template = await load(spec, abort.signal);
			if (abort.signal.aborted) throw new AbortError();
			const check = await readTemplateCheck(key, template);
			this.#template = check;
			return check;
		} catch (err) {
			// Cancelled, or replaced by a newer check: that one decides what is shown.
			if (abort.signal.aborted) return null;
			this.#template = null;
			this.#templateError = { choice, message: errorTextWithFix(err, APP_CHOICES) };
			return null;
		} finally {
			if (this.#templateAbort === abort) {
				this.#templateAbort = null;
				this.#templateBusy = false;
			}
		}
	}

	/** Stop the running template check (a slow download, a template that renders for long). */
	cancelTemplateCheck(): void {
		this.#templateAbort?.abort();
		this.#templateAbort = null;
		this.#templateBusy = false;
	}

	/** Forget the last start's failure (the choice behind it changed). */
	clearFailure(): void {
		this.#error = null;
		this.#datasetUnreachable = false;
		if (this.#step === 'failed') this.#step = 'idle';
	}

	/**
	 * Run the start steps, reporting each; `work` does the loading and storing.
	 * @returns whether the run was started.
	 */
	async start(
		work: (step: (s: StartStep) => void, signal: AbortSignal) => Promise<void>
	): Promise<boolean> {
		if (this.busy) return false;
		this.#error = null;
		this.#datasetUnreachable = false;
		this.#rows = null;
		this.#abort = new AbortController();
		try {
			await work((s) => (this.#step = s), this.#abort.signal);
			this.values.save();
			this.#step = 'idle';
			return true;
		} catch (err) {
			this.#step = this.#abort.signal.aborted ? 'idle' : 'failed';
			this.#error = this.#abort.signal.aborted ? null : errorTextWithFix(err, APP_CHOICES);
			this.#datasetUnreachable =
				!this.#abort.signal.aborted && err instanceof DatasetError && err.unreachable;
			return false;
		} finally {
			this.#abort = null;
			this.#rows = null;
		}
	}

	/** Stop a start that is still loading (a slow dataset download). */
	abortStart(): void {
		this.#abort?.abort();
	}

	setRows(done: number, total: number): void {
		this.#rows = { done, total };
	}
}
