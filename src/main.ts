import { mount } from 'svelte';
import App from './App.svelte';
import { noteLoad } from './lib/app/isolation.ts';
import { useTemplateChecker } from './lib/probe/templateChecker.ts';
import './app.css';

// Chat templates are user code: every check renders them in a worker that can be terminated.
// Loaded on the first check, so the first view does not carry the template interpreter.
useTemplateChecker(async (t, signal) =>
	(await import('./lib/setup/templateChecker.ts')).webWorkerTemplateChecker(t, signal)
);

// Whether this load came through the service worker, before one can take over: a first visit is
// isolated (the CPU engine's threads) by one reload as a CPU run starts, never while it is read.
noteLoad();

mount(App, { target: document.getElementById('app') as HTMLElement });
