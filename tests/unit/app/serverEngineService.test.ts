/**
 * The services' server engines: loaded on first use (their code is not in set-up's first paint),
 * one per server and key however many ask at once, and a bad URL not remembered.
 */
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../../src/lib/app/services.ts';
import {
	BROWSER_QUEUED_REQUESTS,
	DEFAULT_MAX_CONCURRENCY
} from '../../../src/lib/engines/server/client.ts';

describe('services.serverEngine', () => {
	it('gives every caller the same engine for one server and key, and another for another key', async () => {
		const services = createAppServices({});
		const [a, b] = await Promise.all([
			services.serverEngine('http://127.0.0.1:8000'),
			services.serverEngine('http://127.0.0.1:8000')
		]);
		expect(a).toBe(b);
		expect(await services.serverEngine('http://127.0.0.1:8000', 'key')).not.toBe(a);
		// The browser's six connections, and two more waiting in its own queue.
		expect(a.capabilities().max_concurrency).toBe(
			DEFAULT_MAX_CONCURRENCY + BROWSER_QUEUED_REQUESTS
		);
	});

	it('rejects a URL that is not http(s), and does not keep the failure', async () => {
		const services = createAppServices({});
		await expect(services.serverEngine('ftp://example.org')).rejects.toMatchObject({
			code: 'network'
		});
		const first = services.serverEngine('ftp://example.org');
		await expect(first).rejects.toMatchObject({ code: 'network' });
		// Asked anew, not the cached rejection of the first call.
		expect(services.serverEngine('ftp://example.org')).not.toBe(first);
	});
});
