/**
 * What the annotation session needs from storage, as one small interface: the view passes the
 * IndexedDB implementation, tests can pass anything with the same four methods.
 */
import { AnnotationStore } from '../db/annotations.ts';
import { RunNotFoundError } from '../db/errors.ts';
import { DexieRunStore } from '../db/runs.ts';
import type { ProbeDB } from '../db/schema.ts';
import type { Annotation } from '../probe/exchange.ts';
import type { ProbeRecord, RunManifest } from '../probe/types.ts';

export interface LoadedRun {
	manifest: RunManifest;
	records: ProbeRecord[];
	/** Every label in the run, oldest first. */
	annotations: Annotation[];
}

export interface AnnotationBackend {
	/** @throws RunNotFoundError when no such run is stored. */
	load(runId: string): Promise<LoadedRun>;
	/**
	 * Stores one label; resolves once it is committed.
	 * @throws ExchangeError if the annotation is malformed.
	 */
	add(annotation: Annotation): Promise<void>;
	/** Deletes the annotator's newest label in this session and returns it (undefined: none). */
	undo(runId: string, annotator: string, sessionId: string): Promise<Annotation | undefined>;
}

export function dexieBackend(db: ProbeDB): AnnotationBackend {
	const runs = new DexieRunStore(db);
	const notes = new AnnotationStore(db);
	const strip = <T extends { id: number }>({ id: _id, ...rest }: T): Omit<T, 'id'> => rest;
	return {
		async load(runId) {
			const [manifest, records, rows] = await Promise.all([
				runs.getManifest(runId),
				runs.getRecords(runId),
				notes.list(runId)
			]);
			if (manifest === undefined) throw new RunNotFoundError(runId);
			return { manifest, records, annotations: rows.map(strip) };
		},
		async add(annotation) {
			await notes.add(annotation);
		},
		async undo(runId, annotator, sessionId) {
			const row = await notes.undo(runId, annotator, sessionId);
			return row === undefined ? undefined : strip(row);
		}
	};
}
