import { describe, expect, it } from 'vitest';
import { COMMAND_REPEATS, repeated, type CommandCost } from '../../bench/cli100k.ts';

describe('repeated (the CLI bench commands)', () => {
	it('runs the command COMMAND_REPEATS times: median wall and CPU, highest peak RSS', async () => {
		const costs: CommandCost[] = [
			{ wallMs: 900, cpuMs: 4_200, peakRssMB: 150 },
			{ wallMs: 500, cpuMs: 2_500, peakRssMB: 180 },
			{ wallMs: 700, cpuMs: 3_100, peakRssMB: 160 }
		];
		let calls = 0;
		const cost = await repeated(async () => costs[calls++]);
		expect(COMMAND_REPEATS).toBe(3);
		expect(calls).toBe(3);
		// One slow run under load does not decide the figure; one large peak does (memory is a bound).
		expect(cost).toEqual({
			wallMs: 700,
			cpuMs: 3_100,
			peakRssMB: 180,
			cpuRuns: [4_200, 2_500, 3_100]
		});
	});

	it('fails when a run fails', async () => {
		let calls = 0;
		await expect(
			repeated(async () => {
				if (++calls === 2) throw new Error('exit code 1');
				return { wallMs: 1, cpuMs: 1, peakRssMB: 1 };
			})
		).rejects.toThrow('exit code 1');
	});
});
