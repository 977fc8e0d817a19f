import { describe, expect, it, vi } from 'vitest';
import { startFromSetup } from '../../../src/lib/app/launch.ts';
import type { AppServices } from '../../../src/lib/app/services.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import type { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

/** Services that fail the test when used: these starts must not reach storage or an engine. */
const untouched = new Proxy({} as AppServices, {
	get: (_target, name) => () => {
		throw new Error(`services.${String(name)}() was called`);
	}
});

describe('startFromSetup', () => {
	it('refuses a device run where models cannot run, before loading or storing anything', async () => {
		const settings = new EngineSettings(memoryStorage());
		settings.engine.current = 'webgpu';
		const setup = new SetupState(memoryStorage());
		const check = vi.spyOn(setup, 'checkTemplate');
		const start = vi.fn();
		const step = vi.fn();
		const runner = { active: false, runId: null, start } as unknown as RunController;
		const attempt = startFromSetup({
			services: untouched,
			runner,
			settings,
			setup,
			gpu: { canRunModels: false, shaderF16: false },
			step,
			signal: new AbortController().signal
		});
		await expect(attempt).rejects.toBeInstanceOf(EngineError);
		await expect(attempt).rejects.toMatchObject({ code: 'webgpu_unavailable' });
		expect(step).not.toHaveBeenCalled();
		expect(check).not.toHaveBeenCalled();
		expect(start).not.toHaveBeenCalled();
	});

	it('lets the CPU engine start without WebGPU (it gets as far as the template)', async () => {
		const settings = new EngineSettings(memoryStorage());
		settings.engine.current = 'cpu';
		const setup = new SetupState(memoryStorage());
		const check = vi.spyOn(setup, 'checkTemplate').mockResolvedValue(null);
		const step = vi.fn();
		const runner = { active: false, runId: null, start: vi.fn() } as unknown as RunController;
		await expect(
			startFromSetup({
				services: untouched,
				runner,
				settings,
				setup,
				gpu: { canRunModels: false, shaderF16: false },
				step,
				signal: new AbortController().signal
			})
		).rejects.toThrow(/chat template/i);
		expect(step).toHaveBeenCalledWith('template');
		expect(check).toHaveBeenCalledWith(
			{ kind: 'repo', repos: ['Qwen/Qwen2.5-0.5B-Instruct'] },
			expect.any(Function)
		);
	});
});
