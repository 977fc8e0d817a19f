/**
 * The page's side of offline after a first visit. The service worker precaches only the shell
 * (vite.precacheShell.ts) and caches every other chunk the first time the page loads it; but what a
 * first visit loaded before the worker took over went past it. When it takes over, the page hands it
 * those files (workbox's CACHE_URLS message, answered by its router's runtime caches), so the
 * view this visit showed opens offline too.
 */
import { RUNTIME_CACHES } from '../sw/runtimeCaches.ts';

/** The same-origin files among `loaded` that a runtime cache keeps (each once, in order). */
export function urlsToCache(loaded: readonly string[], origin: string): string[] {
	const out = new Set<string>();
	for (const name of loaded) {
		let url: URL;
		try {
			url = new URL(name);
		} catch {
			continue;
		}
		if (url.origin !== origin) continue;
		if (RUNTIME_CACHES.some((c) => c.path.test(url.pathname))) out.add(url.href);
	}
	return [...out];
}

/**
 * Run `then` once this page has a controlling service worker: now if it has one, else when one
 * takes over (a first visit, once the worker installed). Nothing where no service worker runs.
 */
export function whenControlled(then: (sw: ServiceWorker) => void): void {
	const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
	if (!container) return;
	if (container.controller) return then(container.controller);
	const once = () => {
		container.removeEventListener('controllerchange', once);
		if (container.controller) then(container.controller);
	};
	container.addEventListener('controllerchange', once);
}

/**
 * Hand the worker, once it takes over, the files this page loaded before it. Called after the first
 * view painted (App.svelte), so `controlledAtLoad` says how the page loaded, not how it is now.
 */
export function cacheEarlyLoads(controlledAtLoad: boolean): void {
	const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
	// Controlled from the start: everything went through the worker already.
	if (!container || controlledAtLoad) return;
	whenControlled((sw) => {
		const loaded = performance.getEntriesByType('resource').map((e) => e.name);
		const urls = urlsToCache(loaded, location.origin);
		if (urls.length > 0) sw.postMessage({ type: 'CACHE_URLS', payload: { urlsToCache: urls } });
	});
}
