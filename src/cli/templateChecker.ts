/**
 * Template checks in a worker thread, so a runaway template is terminated at the time limit and
 * Ctrl-C is heard while it renders (a render on the main thread blocks signal handlers).
 */
import { Worker } from 'node:worker_threads';
import { checkIsolated, type CheckWorker } from '../lib/probe/templateCheck.ts';
import type { CheckTemplate } from '../lib/probe/templateChecker.ts';

/**
 * The bundle (bin/dist) ships the worker beside itself as JavaScript; run from the sources (tsx,
 * the tests) it is TypeScript, which a worker thread loads through tsx's API.
 */
function startWorker(): Worker {
	const here = import.meta.url;
	if (!here.endsWith('.ts')) return new Worker(new URL('./templateWorker.js', here));
	const file = new URL('./templateWorker.ts', here).href;
	// Resolved here: an eval'd worker would resolve packages from wherever the command was started.
	const tsx = import.meta.resolve('tsx/esm/api');
	return new Worker(
		`import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(file)}, ${JSON.stringify(here)}))`,
		{ eval: true }
	);
}

function spawn(): CheckWorker {
	const w = startWorker();
	return {
		post: (t) => w.postMessage(t),
		onMessage: (fn) => w.on('message', fn),
		onError: (fn) => w.on('error', fn),
		terminate: () => void w.terminate()
	};
}

/** A checker whose checks end when `signal` (the process's) or a check's own signal aborts. */
export const workerTemplateChecker =
	(signal?: AbortSignal): CheckTemplate =>
	(t, own) =>
		checkIsolated(t, spawn, signal && own ? AbortSignal.any([signal, own]) : (signal ?? own));
