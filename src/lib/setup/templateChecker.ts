/**
 * Template checks in a Web Worker, terminated at the time limit: a template that loops never
 * freezes the tab (a render on it blocked clicks and painting until an in-render check fired).
 */
import { checkIsolated, type CheckWorker } from '../probe/templateCheck.ts';
import type { CheckTemplate } from '../probe/templateChecker.ts';

function spawn(): CheckWorker {
	const w = new Worker(new URL('../../workers/template.worker.ts', import.meta.url), {
		type: 'module',
		name: 'template-check'
	});
	return {
		post: (t) => w.postMessage(t),
		onMessage: (fn) => w.addEventListener('message', (e) => fn(e.data)),
		onError: (fn) =>
			w.addEventListener('error', (e) => fn(new Error(e.message || 'the worker did not load'))),
		terminate: () => w.terminate()
	};
}

export const webWorkerTemplateChecker: CheckTemplate = (t, signal) =>
	checkIsolated(t, spawn, signal);
