/** A start's failure belongs to the choice that caused it: clearing it leaves no stale error. */
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

describe('SetupState: clearing a failure', () => {
	it('forgets the start error and the Hub-unreachable flag, and leaves the template check’s own error', async () => {
		const setup = new SetupState(memoryStorage());
		const spec = { kind: 'repo' as const, repos: ['x/y'] };
		await setup.checkTemplate(spec, async () => {
			throw new Error('https://huggingface.co/x/y: Failed to fetch');
		});
		const ok = await setup.start(async () => {
			throw new DatasetError('datasets-server.huggingface.co could not be reached', {
				unreachable: true
			});
		});
		expect(ok).toBe(false);
		expect(setup.error).toMatch(/could not be reached/);
		// The fix in set-up's words, the same sentence the CLI prints with its flags (setup/fixes.ts).
		expect(setup.error).toMatch(
			/The Demo dataset is built in and runs offline; your own file \(Dataset: My file\) works too\./
		);
		expect(setup.datasetUnreachable).toBe(true);
		expect(setup.templateError).toMatch(/Failed to fetch/);
		expect(setup.step).toBe('failed');
		setup.clearFailure();
		expect(setup.error).toBeNull();
		expect(setup.datasetUnreachable).toBe(false);
		expect(setup.step).toBe('idle');
		// A new check of any source replaces it; clearing a start failure does not hide it.
		expect(setup.templateError).toMatch(/Failed to fetch/);
	});
});
