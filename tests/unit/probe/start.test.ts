import { describe, expect, it } from 'vitest';
import {
	driveStart,
	START_STEPS,
	startRun,
	type StartEvent,
	type StartPorts
} from '../../../src/lib/probe/start.ts';

/** Ports that log each call and return their step's name; `fail` names the one that throws. */
function ports(fail?: { step: string; error: Error }, server = true) {
	const calls: string[] = [];
	const port =
		<T>(step: string, value: T) =>
		async () => {
			calls.push(step);
			if (fail?.step === step) throw fail.error;
			return value;
		};
	const p: StartPorts<string, string, string[], string> = {
		lock: port('lock', undefined),
		server: server ? port('server', 'models') : undefined,
		template: port('template', 'tpl'),
		dataset: port('dataset', ['q1', 'q2']),
		store: async (got) => {
			calls.push('store');
			if (fail?.step === 'store') throw fail.error;
			return `${got.template}:${got.data.length}:${got.server ?? 'none'}`;
		}
	};
	return { p, calls };
}

describe('startRun', () => {
	it('takes the steps in their one order and hands the store what the others got', async () => {
		const { p, calls } = ports();
		const events: StartEvent[] = [];
		const started = await driveStart(p, (e) => events.push(e));
		expect(calls).toEqual([...START_STEPS]);
		expect(events).toEqual(START_STEPS.map((step) => ({ type: 'step', step })));
		expect(started).toEqual({
			server: 'models',
			template: 'tpl',
			data: ['q1', 'q2'],
			stored: 'tpl:2:models'
		});
	});

	it('says the server step is skipped when there is no server (an engine on this device)', async () => {
		const { p, calls } = ports(undefined, false);
		const events: StartEvent[] = [];
		const started = await driveStart(p, (e) => events.push(e));
		expect(calls).toEqual(['lock', 'template', 'dataset', 'store']);
		expect(events[1]).toEqual({ type: 'skipped', step: 'server' });
		expect(started.stored).toBe('tpl:2:none');
	});

	for (const step of START_STEPS) {
		it(`stops at a failing ${step} step with its own error, calling no later port`, async () => {
			const error = new Error(`${step} failed`);
			const { p, calls } = ports({ step, error });
			const events: StartEvent[] = [];
			await expect(driveStart(p, (e) => events.push(e))).rejects.toBe(error);
			expect(calls).toEqual(START_STEPS.slice(0, START_STEPS.indexOf(step) + 1));
			expect(events.at(-1)).toEqual({ type: 'failed', step, error });
			expect(events.filter((e) => e.type === 'failed')).toHaveLength(1);
		});
	}

	it('is lazy: nothing is called until the events are read', async () => {
		const { p, calls } = ports();
		const steps = startRun(p);
		expect(calls).toEqual([]);
		expect(await steps.next()).toEqual({ done: false, value: { type: 'step', step: 'lock' } });
		expect(calls).toEqual([]);
		await steps.next();
		expect(calls).toEqual(['lock']);
	});
});
