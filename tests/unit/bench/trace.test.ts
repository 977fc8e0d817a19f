import { describe, expect, it } from 'vitest';
import { cpuBounded, mainThreadTasks } from '../../bench/browser/trace.ts';

const meta = (pid: number, tid: number, name: string) => ({
	ph: 'M',
	name: 'thread_name',
	pid,
	tid,
	ts: 0,
	args: { name }
});
const task = (pid: number, tid: number, name: string, ts: number, dur: number, tdur?: number) => ({
	ph: 'X',
	name,
	pid,
	tid,
	ts,
	dur,
	...(tdur === undefined ? {} : { tdur })
});

describe('mainThreadTasks', () => {
	it('keeps renderer main-thread tasks once each, with wall and CPU time, in start order', () => {
		const tasks = mainThreadTasks([
			meta(1, 10, 'CrRendererMain'),
			meta(1, 11, 'DedicatedWorker thread'),
			meta(2, 20, 'CrRendererMain'),
			// One task and its nested wrapper: counted once, by the outer event.
			task(1, 10, 'RunTask', 1_000, 84_000, 33_000),
			task(1, 10, 'ThreadControllerImpl::RunTask', 1_050, 83_900, 32_900),
			// A worker's task is not the page's main thread.
			task(1, 11, 'RunTask', 2_000, 500_000, 499_000),
			// Another renderer's main thread, overlapping in time: its own task.
			task(2, 20, 'RunTask', 5_000, 10_000, 9_000),
			task(1, 10, 'RunTask', 90_000, 71_000, 24_000),
			// Not a task event.
			task(1, 10, 'FunctionCall', 91_000, 60_000, 20_000)
		]);
		expect(tasks).toEqual([
			{ startUs: 1_000, wallMs: 84, cpuMs: 33 },
			{ startUs: 5_000, wallMs: 10, cpuMs: 9 },
			{ startUs: 90_000, wallMs: 71, cpuMs: 24 }
		]);
	});

	it('says a task has no CPU time rather than passing its wall time off as one', () => {
		const tasks = mainThreadTasks([
			meta(1, 10, 'CrRendererMain'),
			task(1, 10, 'RunTask', 0, 70_000)
		]);
		expect(tasks).toEqual([{ startUs: 0, wallMs: 70, cpuMs: null }]);
	});
});

describe('cpuBounded', () => {
	it('counts a task the trace gives no CPU time at its wall time, and says how many', () => {
		// As Chromium 156.0.8078.108 traces: the shortest tasks carry no tdur.
		const timed = cpuBounded([
			{ startUs: 0, wallMs: 30, cpuMs: 24 },
			{ startUs: 40_000, wallMs: 0.002, cpuMs: null },
			{ startUs: 50_000, wallMs: 0.001, cpuMs: null }
		]);
		expect(timed).toEqual({
			tasks: [
				{ startUs: 0, wallMs: 30, cpuMs: 24 },
				{ startUs: 40_000, wallMs: 0.002, cpuMs: 0.002 },
				{ startUs: 50_000, wallMs: 0.001, cpuMs: 0.001 }
			],
			untimed: 2,
			untimedLongestMs: 0.002
		});
	});

	it('gives nothing when no task has a CPU time, rather than wall times passed off as CPU', () => {
		expect(
			cpuBounded([
				{ startUs: 0, wallMs: 70, cpuMs: null },
				{ startUs: 80_000, wallMs: 5, cpuMs: null }
			])
		).toBeNull();
		expect(cpuBounded([])).toBeNull();
	});
});
