/**
 * The CLI's progress line: records/min is this run's rate. After a resume, the records earlier runs
 * of the command stored are not counted over this run's elapsed time (which would show a resumed
 * run of 90 old + 10 new records in a minute as 100/min).
 */
import { describe, expect, it } from 'vitest';
import { ProgressLine } from '../../../src/cli/progress.ts';
import type { ProbeEvent } from '../../../src/lib/probe/events.ts';
import { runProbe, type ProbeContext } from '../../../src/lib/probe/pipeline.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import { probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

function lines(events: ProbeEvent[]): string[] {
	const out: string[] = [];
	let t = 0;
	const line = new ProgressLine({ write: (s) => out.push(s.trimEnd()) }, () => (t += 1_000));
	for (const e of events) line.render(e);
	return out;
}

const plan = (already_done: number): ProbeEvent => ({
	type: 'plan',
	items: 10,
	conditions: 10,
	total: 100,
	already_done,
	phased: false,
	concurrency: 4
});
const progress = (done: number, elapsed_ms: number): ProbeEvent => ({
	type: 'progress',
	done,
	generated: done,
	total: 100,
	elapsed_ms,
	eta_ms: null,
	decode_tps: null
});

const rateOf = (line: string | undefined) => Number(/· ([\d.]+)\/min/.exec(line ?? '')?.[1]);

describe('ProgressLine records/min', () => {
	it('counts every record of a fresh run', () => {
		expect(rateOf(lines([plan(0), progress(10, 60_000)]).at(-1))).toBe(10);
	});

	it("counts only this run's records after a resume", () => {
		const out = lines([plan(90), progress(100, 60_000)]);
		expect(out.at(-1)).toContain('records 100/100');
		expect(rateOf(out.at(-1))).toBe(10);
	});

	it('shows 0/min, not a negative rate, before this run labels anything', () => {
		expect(rateOf(lines([plan(90), progress(90, 5_000)]).at(-1))).toBe(0);
	});

	it('follows the real pipeline through an interrupted run and its resume', async () => {
		const store = new MemoryStore();
		const config = probeConfig();
		const context = (signal?: AbortSignal): ProbeContext => {
			let t = 0;
			const engine = new ScriptedEngine();
			return {
				engine,
				judge: engine,
				store,
				template: fixtureTemplate(),
				signal,
				now: () => (t += 5),
				timestamp: () => '2026-11-23T00:00:00.000Z'
			} as ProbeContext;
		};
		// The first run stops after 20 stored records.
		const stop = new AbortController();
		let stored = 0;
		for await (const e of runProbe(config, context(stop.signal))) {
			if (e.type === 'record' && ++stored === 20) stop.abort();
		}
		const before = (await store.getRecords(config.run_id)).filter((r) => r.label !== null).length;
		expect(before).toBeGreaterThan(0);

		const events: ProbeEvent[] = [];
		for await (const e of runProbe(config, context())) events.push(e);
		const last = [...events].reverse().find((e) => e.type === 'progress');
		if (last?.type !== 'progress') throw new Error('the resumed run reported no progress');
		expect(events[0]).toMatchObject({ type: 'plan', already_done: before });
		const out = lines(events).filter((l) => l.startsWith('records'));
		const expected = ((last.done - before) / last.elapsed_ms) * 60_000;
		expect(rateOf(out.at(-1))).toBeCloseTo(expected, 1);
		// What the line showed before the fix: every stored record over this run's time.
		expect(rateOf(out.at(-1))).toBeLessThan((last.done / last.elapsed_ms) * 60_000);
	});
});
