/** The runs view's state over a real DexieRunStore in fake-indexeddb, for the state tests. */
import { afterEach } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import type { ProbeDB } from '../../../src/lib/db/schema.ts';
import { RunsState, type DownloadFile } from '../../../src/lib/state/runs.svelte.ts';
import { testDB } from '../db/helpers.ts';

let opened: ProbeDB[] = [];

/** Close every database the test opened; call once at the top of a test file. */
export function closeAfterEach(): void {
	afterEach(() => {
		opened.forEach((db) => db.close());
		opened = [];
	});
}

/** A fresh database named `name`, its store, the state over it and the files it saved. */
export function setup(name: string) {
	const { db } = testDB(name);
	opened.push(db);
	const store = new DexieRunStore(db);
	const saved: DownloadFile[] = [];
	const state = new RunsState(store, (f) => saved.push(f));
	return { db, store, state, saved };
}

/** A picked file, as RunsState reads it. */
export const file = (name: string, text: string) => ({ name, text: async () => text });
