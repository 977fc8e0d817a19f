import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src/lib/errors/appError.ts';
import { describeError, errorText, ISOLATION_NOTE } from '../../../src/lib/errors/describe.ts';

afterEach(() => vi.unstubAllGlobals());

const network = () =>
	new AppError('Downloading http://h.test/m.gguf failed (Failed to fetch).', {
		code: 'network',
		recovery: 'Check the URL and the connection, then retry.'
	});

describe('describeError on a cross-origin-isolated page', () => {
	it('adds how to turn isolation off to a network failure', () => {
		vi.stubGlobal('crossOriginIsolated', true);
		expect(describeError(network()).recovery).toBe(
			`Check the URL and the connection, then retry. ${ISOLATION_NOTE}`
		);
		expect(errorText(network())).toContain('untick “Cross-origin isolation”');
	});

	it('says nothing of isolation on a page that is not isolated, nor in Node', () => {
		expect(describeError(network()).recovery).toBe('Check the URL and the connection, then retry.');
		vi.stubGlobal('crossOriginIsolated', false);
		expect(errorText(network())).not.toContain('isolat');
	});

	it('says nothing of isolation for failures that are not the network', () => {
		vi.stubGlobal('crossOriginIsolated', true);
		const quota = new AppError('The browser ran out of storage.', { code: 'quota_exceeded' });
		expect(describeError(quota).recovery).toBeUndefined();
	});
});
