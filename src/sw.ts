/**
 * The app's one service worker: offline after the first visit (the app shell precached, the
 * engines' workers and wasm cached on first use) and cross-origin isolation on hosts that cannot
 * send headers (src/lib/sw/isolation.ts). Built by vite-plugin-pwa (injectManifest), which fills
 * in self.__WB_MANIFEST.
 */
/// <reference lib="webworker" />
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import {
	addPlugins,
	cleanupOutdatedCaches,
	createHandlerBoundToURL,
	precacheAndRoute
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';
import { isolationOff, needsIsolationHeaders, withIsolationHeaders } from './lib/sw/isolation.ts';
import { RUNTIME_CACHES } from './lib/sw/runtimeCaches.ts';

declare const self: ServiceWorkerGlobalScope;

// A new version takes over at once (as registerType 'autoUpdate' did with generateSW).
void self.skipWaiting();
clientsClaim();

/** Adds the isolation headers to page loads and worker scripts, unless the user turned them off. */
const isolation: WorkboxPlugin = {
	async handlerWillRespond({ event, request, response }) {
		// The navigation route asks the precache for index.html: the original request says what it was.
		const original = (event as FetchEvent | undefined)?.request ?? request;
		if (!needsIsolationHeaders(original) || (await isolationOff(self.caches))) return response;
		return withIsolationHeaders(response);
	}
};

addPlugins([isolation]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

for (const c of RUNTIME_CACHES) {
	registerRoute(
		({ url, sameOrigin }) => sameOrigin && c.path.test(url.pathname),
		new CacheFirst({
			cacheName: c.cacheName,
			plugins: [new ExpirationPlugin({ maxEntries: c.maxEntries }), isolation]
		})
	);
}

// Any other worker script of ours (one added later and not listed above) still gets the headers:
// an isolated page cannot start a worker whose script lacks them.
registerRoute(
	({ request, sameOrigin }) => sameOrigin && needsIsolationHeaders(request),
	new NetworkOnly({ plugins: [isolation] })
);
