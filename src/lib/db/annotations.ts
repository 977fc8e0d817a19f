/**
 * Human labels on generated user turns. Several annotators may label the same record, and one
 * annotator may relabel it; every label is kept (agreement needs the history), and the newest
 * label per (key, annotator) is the one that counts.
 */
import { ExchangeError, validateAnnotation } from '../probe/exchange.ts';
import type { Annotation } from '../probe/exchange.ts';
import type { Label } from '../probe/types.ts';
import type { AnnotationRow, ProbeDB } from './schema.ts';

export type NewAnnotation = Omit<Annotation, 'created_at'> & { created_at?: string };

export class AnnotationStore {
	readonly #db: ProbeDB;
	readonly #now: () => Date;

	constructor(db: ProbeDB, now: () => Date = () => new Date()) {
		this.#db = db;
		this.#now = now;
	}

	/**
	 * Stores one label and returns its id.
	 * @throws ExchangeError if the annotation is malformed (e.g. an unknown label).
	 */
	async add(a: NewAnnotation): Promise<number> {
		const annotation: Annotation = { ...a, created_at: a.created_at ?? this.#now().toISOString() };
		const problems = validateAnnotation(annotation);
		if (problems.length > 0) throw new ExchangeError(problems);
		return this.#db.annotations.add(annotation);
	}

	/**
	 * Deletes this annotator's most recent label in the run (within one session if given) and
	 * returns it, or undefined when there is nothing to undo.
	 */
	async undo(
		runId: string,
		annotator: string,
		sessionId?: string
	): Promise<AnnotationRow | undefined> {
		const db = this.#db;
		return db.transaction('rw', db.annotations, async () => {
			// The compound index orders equal [run_id+annotator] entries by id: insertion order.
			let mine = db.annotations.where('[run_id+annotator]').equals([runId, annotator]);
			if (sessionId !== undefined) mine = mine.and((a) => a.session_id === sessionId);
			const last = await mine.last();
			if (last !== undefined) await db.annotations.delete(last.id);
			return last;
		});
	}

	/** Every label in the run, oldest first. */
	async list(runId: string): Promise<AnnotationRow[]> {
		return this.#db.annotations.where('run_id').equals(runId).sortBy('id');
	}

	/** Every label on one record, oldest first. */
	async forRecord(runId: string, key: string): Promise<AnnotationRow[]> {
		return this.#db.annotations.where('[run_id+key]').equals([runId, key]).sortBy('id');
	}

	/** The annotator's current label per record key: their newest label on each. */
	async latestByKey(runId: string, annotator: string): Promise<Map<string, Label>> {
		const rows = await this.#db.annotations
			.where('[run_id+annotator]')
			.equals([runId, annotator])
			.toArray();
		return new Map(rows.map((a) => [a.key, a.label]));
	}
}
