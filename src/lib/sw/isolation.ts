/**
 * Cross-origin isolation from the app's own service worker, for static hosts that cannot send
 * headers (GitHub Pages): the worker re-serves the page and every worker script with
 * `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: credentialless`, so
 * the page (and the CPU engine's worker) gets SharedArrayBuffer and llama.cpp its threads.
 *
 * credentialless, not require-corp: cross-origin no-cors loads still work (sent without cookies),
 * and CORS requests (model, dataset, template and run-file downloads, the server engine) are
 * unchanged, so nothing the app fetches needs new headers from its host.
 *
 * The switch that turns it off lives in Cache Storage, which the page writes and the service
 * worker reads (it has no localStorage). Shared by both; no DOM, no workbox.
 */

export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Cross-Origin-Embedder-Policy': 'credentialless'
};

/** The cache holding the switch; its one entry, present only while isolation is off. */
export const SETTINGS_CACHE = 'app-settings';
const OFF_KEY = '/__app-settings__/isolation-off';

/** The slice of Cache Storage used here (Node tests pass a Map-backed fake). */
export interface CacheStorageLike {
	open(name: string): Promise<{
		match(key: string): Promise<Response | undefined>;
		put(key: string, res: Response): Promise<void>;
		delete(key: string): Promise<boolean>;
	}>;
}

/** Has the user turned isolation off? Missing Cache Storage reads as on (the default). */
export async function isolationOff(storage: CacheStorageLike | undefined): Promise<boolean> {
	if (!storage) return false;
	try {
		return (await (await storage.open(SETTINGS_CACHE)).match(OFF_KEY)) !== undefined;
	} catch {
		return false;
	}
}

/** @throws whatever Cache Storage throws (quota, a private window): the switch did not stick. */
export async function setIsolationOff(storage: CacheStorageLike, off: boolean): Promise<void> {
	const cache = await storage.open(SETTINGS_CACHE);
	if (off) await cache.put(OFF_KEY, new Response('off'));
	else await cache.delete(OFF_KEY);
}

/** The requests whose responses decide isolation: a page load, and each worker's script. */
export function needsIsolationHeaders(req: Pick<Request, 'mode' | 'destination'>): boolean {
	return (
		req.mode === 'navigate' ||
		req.destination === 'document' ||
		req.destination === 'worker' ||
		req.destination === 'sharedworker'
	);
}

/**
 * The same response with the isolation headers. Opaque and redirect responses cannot be rebuilt
 * (and never carry a page or a worker script of ours); they pass through.
 */
export function withIsolationHeaders(res: Response): Response {
	if (res.type === 'opaque' || res.type === 'opaqueredirect' || res.status === 0) return res;
	const headers = new Headers(res.headers);
	for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
	return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
