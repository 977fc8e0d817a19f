/** A start's failure belongs to the choice that caused it: clearing it leaves no stale error. */
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

describe('SetupState: clearing a failure', () => {
	it('forgets the start error, the Hub-unreachable flag and the template error together', async () => {
		const setup = new SetupState(memoryStorage());
		await setup.checkTemplate({ kind: 'repo', repos: ['x/y'] }, async () => {
			throw new Error('https://huggingface.co/x/y: Failed to fetch');
		});
		const ok = await setup.start(async () => {
			throw new DatasetError('datasets-server.huggingface.co could not be reached', {
				unreachable: true
			});
		});
		expect(ok).toBe(false);
		expect(setup.error).toMatch(/could not be reached/);
		expect(setup.datasetUnreachable).toBe(true);
		expect(setup.templateError).toMatch(/Failed to fetch/);
		expect(setup.step).toBe('failed');
		setup.clearFailure();
		expect(setup.error).toBeNull();
		expect(setup.datasetUnreachable).toBe(false);
		expect(setup.templateError).toBeNull();
		expect(setup.step).toBe('idle');
	});
});
