/**
 * One annotator's pass over a draw, as plain data and pure functions: which item is shown, what
 * labeling, skipping and undoing do to the queue, and progress. The rune class in
 * state/annotation.svelte.ts holds this and writes to the database; everything here runs in Node.
 */
import type { Annotation } from '../probe/exchange.ts';
import type { ProbeRecord } from '../probe/types.ts';

export interface Queue {
	/** The whole draw, in its seeded order: the same for every annotator. */
	readonly draw: readonly string[];
	/** Keys still to label, current first. Skipped keys move to the back. */
	readonly pending: readonly string[];
	/** Keys in the draw this annotator has labeled. */
	readonly done: ReadonlySet<string>;
}

/** Keys this annotator has a label on (after undo deletes a label, the key is no longer done). */
export function doneKeys(annotations: readonly Annotation[], annotator: string): Set<string> {
	return new Set(annotations.filter((a) => a.annotator === annotator).map((a) => a.key));
}

/** Items already labeled by this annotator, in any session, are not shown again. */
export function startQueue(draw: readonly string[], done: ReadonlySet<string> = new Set()): Queue {
	const inDraw = new Set(draw);
	return {
		draw,
		pending: draw.filter((k) => !done.has(k)),
		done: new Set([...done].filter((k) => inDraw.has(k)))
	};
}

export function current(q: Queue): string | undefined {
	return q.pending[0];
}

/** The current item was labeled: it leaves the queue. */
export function labeled(q: Queue, key: string): Queue {
	if (!q.draw.includes(key)) return q;
	return {
		draw: q.draw,
		pending: q.pending.filter((k) => k !== key),
		done: new Set([...q.done, key])
	};
}

/** The current item goes to the back, to be shown again after the others. */
export function skipped(q: Queue): Queue {
	const [first, ...rest] = q.pending;
	if (first === undefined || rest.length === 0) return q;
	return { ...q, pending: [...rest, first] };
}

/** A label on `key` was removed: show that item again, now. Keys outside the draw are ignored. */
export function undone(q: Queue, key: string): Queue {
	if (!q.draw.includes(key)) return q;
	const done = new Set(q.done);
	done.delete(key);
	return { draw: q.draw, pending: [key, ...q.pending.filter((k) => k !== key)], done };
}

export interface Progress {
	/** Items of the draw labeled by this annotator. */
	done: number;
	total: number;
}

export function progress(q: Queue): Progress {
	return { done: q.done.size, total: q.draw.length };
}

/** Records by key, for showing the current item. */
export function indexByKey(records: readonly ProbeRecord[]): ReadonlyMap<string, ProbeRecord> {
	return new Map(records.map((r) => [r.key, r]));
}

/** The default clock for created_at. */
export function isoNow(): string {
	return new Date().toISOString();
}
