import { mount } from 'svelte';
import App from './App.svelte';
import { reloadOnceWhenIsolatable } from './lib/app/isolation.ts';
import { useTemplateChecker } from './lib/probe/templateChecker.ts';
import './app.css';

// Chat templates are user code: every check renders them in a worker that can be terminated.
// Loaded on the first check, so the first view does not carry the template interpreter.
useTemplateChecker(async (t, signal) =>
	(await import('./lib/setup/templateChecker.ts')).webWorkerTemplateChecker(t, signal)
);

// A first visit reloads once when the service worker can isolate it (the CPU engine's threads).
reloadOnceWhenIsolatable();

mount(App, { target: document.getElementById('app') as HTMLElement });
