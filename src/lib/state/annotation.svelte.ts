/**
 * One annotator's sitting on one run, as rune state: the loaded run, the queue of drawn items, and
 * the labels, each written to IndexedDB the moment it is given.
 *
 * Labels are applied to the screen at once and written in the background, strictly in order, so a
 * fast annotator never waits for the database and never labels the same item twice. If a write
 * fails, the state is reloaded from the database, which stays the truth.
 */
import { errorText } from '../errors/describe.ts';
import type { AnnotationBackend } from '../annotate/backend.ts';
import { DEFAULT_DRAW_SIZE, drawKeys } from '../annotate/draw.ts';
import { agreementReport, machineAgreement, type AgreementReport } from '../annotate/report.ts';
import {
	current,
	doneKeys,
	indexByKey,
	isoNow,
	labeled,
	progress,
	skipped,
	startQueue,
	undone,
	type Progress,
	type Queue
} from '../annotate/session.ts';
import { RunNotFoundError } from '../db/errors.ts';
import type { Annotation } from '../probe/exchange.ts';
import type { HumanVerdict, Label, ProbeRecord } from '../probe/types.ts';

export type SessionStatus = 'loading' | 'ready' | 'missing' | 'failed';

/**
 * What an annotator sees of a record: no model, temperature, perturbation or machine label, and
 * never the human's real next turn (reference_turn), which the paper's annotators did not see.
 */
export interface BlindItem {
	question: string;
	/** The answer as the model saw it: perturbed_answer. */
	answer: string;
	userTurn: string;
}

export interface DrawSettings {
	size: number;
	seed: number;
}

export const DEFAULT_DRAW: DrawSettings = { size: DEFAULT_DRAW_SIZE, seed: 0 };

export class AnnotationSession {
	readonly runId: string;
	readonly #backend: AnnotationBackend;
	readonly #now: () => string;

	#status = $state<SessionStatus>('loading');
	#error = $state<string | null>(null);
	#records = $state.raw<ProbeRecord[]>([]);
	#annotations = $state.raw<Annotation[]>([]);
	#annotator = $state<string | null>(null);
	#sessionId = '';
	#settings = $state.raw<DrawSettings>(DEFAULT_DRAW);
	#queue = $state.raw<Queue>(startQueue([]));
	/** Keys labeled in this session, newest last: what undo walks back through. */
	#stack = $state.raw<string[]>([]);
	#writes: Promise<void> = Promise.resolve();

	#byKey = $derived(indexByKey(this.#records));
	// Derived lazily: the bootstraps only run while the agreement panel reads the report. The
	// machine pairs cover the whole run and do not change with labels: kept apart, computed once.
	#machine = $derived.by(() => machineAgreement(this.#records));
	#report = $derived.by(() => agreementReport(this.#records, this.#annotations, {}, this.#machine));

	/** `now` gives created_at (an ISO timestamp); tests pin it. */
	constructor(runId: string, backend: AnnotationBackend, now: () => string = isoNow) {
		this.runId = runId;
		this.#backend = backend;
		this.#now = now;
	}

	get status(): SessionStatus {
		return this.#status;
	}
	/** The last load or write failure, for an alert; null when all is well. */
	get error(): string | null {
		return this.#error;
	}
	get annotator(): string | null {
		return this.#annotator;
	}
	get settings(): DrawSettings {
		return this.#settings;
	}
	get recordCount(): number {
		return this.#records.length;
	}
	get progress(): Progress {
		return progress(this.#queue);
	}
	get finished(): boolean {
		return this.#annotator !== null && current(this.#queue) === undefined;
	}
	get canUndo(): boolean {
		return this.#stack.length > 0;
	}
	get report(): AgreementReport {
		return this.#report;
	}

	get item(): BlindItem | undefined {
		const key = current(this.#queue);
		const r = key === undefined ? undefined : this.#byKey.get(key);
		return r && { question: r.question, answer: r.perturbed_answer, userTurn: r.user_turn };
	}

	/** The full record, for the agreement panel (never for the blinded item). */
	record(key: string): ProbeRecord | undefined {
		return this.#byKey.get(key);
	}

	async load(): Promise<void> {
		this.#status = 'loading';
		try {
			const run = await this.#backend.load(this.runId);
			this.#records = run.records;
			this.#annotations = run.annotations;
			this.#status = 'ready';
		} catch (err) {
			this.#status = err instanceof RunNotFoundError ? 'missing' : 'failed';
			this.#error = errorText(err);
		}
	}

	/**
	 * Starts (or resumes) labeling as `annotator`. The draw depends on the settings only, never on
	 * the annotator; items this annotator labeled before, in any session, are not shown again.
	 */
	start(annotator: string, sessionId: string, settings: DrawSettings = DEFAULT_DRAW): void {
		this.#annotator = annotator.trim();
		this.#sessionId = sessionId;
		this.#settings = settings;
		const draw = drawKeys(this.#records, settings.size, settings.seed);
		this.#rebuild(draw);
	}

	/** Labels the current item with a category and the annotator's verdict. */
	label(label: Label, verdict: HumanVerdict): void {
		const key = current(this.#queue);
		const annotator = this.#annotator;
		if (key === undefined || annotator === null) return;
		const a: Annotation = {
			run_id: this.runId,
			key,
			annotator,
			label,
			verdict,
			created_at: this.#now(),
			session_id: this.#sessionId
		};
		this.#annotations = [...this.#annotations, a];
		this.#queue = labeled(this.#queue, key);
		this.#stack = [...this.#stack, key];
		this.#write(() => this.#backend.add(a));
	}

	skip(): void {
		this.#queue = skipped(this.#queue);
	}

	/** Removes this annotator's last label of this session and shows that item again. */
	undo(): void {
		const key = this.#stack.at(-1);
		const annotator = this.#annotator;
		if (key === undefined || annotator === null) return;
		this.#stack = this.#stack.slice(0, -1);
		const i = this.#annotations.findLastIndex(
			(a) => a.key === key && a.annotator === annotator && a.session_id === this.#sessionId
		);
		if (i >= 0) this.#annotations = this.#annotations.toSpliced(i, 1);
		this.#queue = undone(this.#queue, key);
		this.#write(async () => {
			await this.#backend.undo(this.runId, annotator, this.#sessionId);
		});
	}

	/** Resolves when every label given so far is committed (or a failure has been handled). */
	settled(): Promise<void> {
		return this.#writes;
	}

	#write(op: () => Promise<void>): void {
		this.#writes = this.#writes.then(op).catch(async (err: unknown) => {
			this.#error = `A label was not saved: ${errorText(err)}`;
			await this.#resync();
		});
	}

	/** Back to what the database holds, keeping the draw. */
	async #resync(): Promise<void> {
		try {
			this.#annotations = (await this.#backend.load(this.runId)).annotations;
		} catch {
			// The error above is already shown; the old state stays until the next reload.
			return;
		}
		this.#rebuild(this.#queue.draw);
	}

	#rebuild(draw: readonly string[]): void {
		const me = this.#annotator ?? '';
		this.#queue = startQueue(draw, doneKeys(this.#annotations, me));
		this.#stack = this.#annotations
			.filter((a) => a.annotator === me && a.session_id === this.#sessionId)
			.map((a) => a.key);
	}
}

/** Where the annotator's name lives for the browser session: asked once, not on every run. */
const ANNOTATOR_KEY = 'utp.annotator';

export interface Remembered {
	name: string;
	sessionId: string;
}

export function rememberedAnnotator(storage: Storage | undefined): Remembered | null {
	try {
		const raw = storage?.getItem(ANNOTATOR_KEY);
		const value: unknown = raw ? JSON.parse(raw) : null;
		if (
			typeof value === 'object' &&
			value !== null &&
			'name' in value &&
			'sessionId' in value &&
			typeof value.name === 'string' &&
			typeof value.sessionId === 'string'
		) {
			return { name: value.name, sessionId: value.sessionId };
		}
	} catch {
		// Storage blocked (private mode) or a hand-edited value: ask again.
	}
	return null;
}

/** Stores the name with a new session id (a new name is a new sitting) and returns both. */
export function rememberAnnotator(storage: Storage | undefined, name: string): Remembered {
	// Not crypto.randomUUID: it is missing outside secure contexts (a LAN http:// address).
	const sessionId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
	const remembered = { name: name.trim(), sessionId };
	try {
		storage?.setItem(ANNOTATOR_KEY, JSON.stringify(remembered));
	} catch {
		// Not remembered this time; the sitting still works.
	}
	return remembered;
}
