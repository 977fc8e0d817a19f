import { describe, expect, it } from 'vitest';
import {
	isolationOff,
	needsIsolationHeaders,
	setIsolationOff,
	withIsolationHeaders,
	type CacheStorageLike
} from '../../../src/lib/sw/isolation.ts';

/** Cache Storage as the browser keeps it: named caches of key → Response. */
function memoryCaches(): CacheStorageLike & { names: Map<string, Map<string, Response>> } {
	const names = new Map<string, Map<string, Response>>();
	return {
		names,
		async open(name) {
			const cache = names.get(name) ?? new Map<string, Response>();
			names.set(name, cache);
			return {
				match: async (key) => cache.get(key)?.clone(),
				put: async (key, res) => void cache.set(key, res),
				delete: async (key) => cache.delete(key)
			};
		}
	};
}

describe('the isolation switch in Cache Storage', () => {
	it('is on by default, off once turned off, on again once turned on', async () => {
		const storage = memoryCaches();
		expect(await isolationOff(storage)).toBe(false);
		await setIsolationOff(storage, true);
		expect(await isolationOff(storage)).toBe(true);
		await setIsolationOff(storage, false);
		expect(await isolationOff(storage)).toBe(false);
	});

	it('reads as on where there is no Cache Storage or it throws', async () => {
		expect(await isolationOff(undefined)).toBe(false);
		const broken: CacheStorageLike = {
			open: () => Promise.reject(new DOMException('denied', 'SecurityError'))
		};
		expect(await isolationOff(broken)).toBe(false);
	});

	it('lets a failed write surface: the switch did not stick', async () => {
		const full: CacheStorageLike = {
			open: async () => ({
				match: async () => undefined,
				put: () => Promise.reject(new DOMException('full', 'QuotaExceededError')),
				delete: async () => false
			})
		};
		await expect(setIsolationOff(full, true)).rejects.toThrow('full');
	});
});

describe('which responses carry the isolation headers', () => {
	it.each([
		[{ mode: 'navigate', destination: 'document' }, true],
		[{ mode: 'same-origin', destination: 'worker' }, true],
		[{ mode: 'same-origin', destination: 'sharedworker' }, true],
		[{ mode: 'cors', destination: 'script' }, false],
		[{ mode: 'cors', destination: '' }, false],
		[{ mode: 'no-cors', destination: 'image' }, false]
	] as const)('%o → %s', (req, expected) => {
		expect(needsIsolationHeaders(req as Pick<Request, 'mode' | 'destination'>)).toBe(expected);
	});

	it('adds COOP same-origin and COEP credentialless, keeping status, type and body', async () => {
		const res = new Response('<!doctype html>', {
			status: 200,
			headers: { 'content-type': 'text/html', 'cross-origin-embedder-policy': 'unsafe-none' }
		});
		const out = withIsolationHeaders(res);
		expect(out.headers.get('cross-origin-opener-policy')).toBe('same-origin');
		expect(out.headers.get('cross-origin-embedder-policy')).toBe('credentialless');
		expect(out.headers.get('content-type')).toBe('text/html');
		expect(out.status).toBe(200);
		expect(await out.text()).toBe('<!doctype html>');
	});

	it('passes an opaque response through untouched (it cannot be rebuilt)', () => {
		const opaque = { type: 'opaque', status: 0, headers: new Headers() } as Response;
		expect(withIsolationHeaders(opaque)).toBe(opaque);
	});
});
