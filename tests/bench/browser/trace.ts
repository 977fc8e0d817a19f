/**
 * The page's main-thread tasks from Chromium's own trace (CDP Tracing, category "toplevel"): each
 * task's wall time and its thread CPU time.
 *
 * The Long Tasks API gives wall time only, and on a busy machine a task's wall time is mostly the
 * time the thread waited for a core: in one trace at load average ≈ 18 on 2 cores, a 30 ms loop
 * took 71 ms of wall time and 24 ms of CPU. The CPU time is what the app's code costs the page,
 * whatever else the machine runs, so the bench's budgets read it; the wall time stays beside it.
 */
import type { CDPSession, Page } from 'playwright-core';

export interface MainThreadTask {
	/** Trace clock, microseconds. */
	startUs: number;
	wallMs: number;
	/** Thread CPU time; null where the trace carries none (thread timing off on this platform). */
	cpuMs: number | null;
}

/** The scheduler's task events; both names wrap the same task in the Chromium versions we meet. */
const TASK_EVENTS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
/** A renderer's main thread in the trace's thread-name metadata. */
const RENDERER_MAIN = 'CrRendererMain';
/** Ample for ~25,000 tasks × 2 events; recordUntilFull keeps the run's start if it ever fills. */
const TRACE_BUFFER_KB = 256 * 1024;

interface TraceEvent {
	ph: string;
	name: string;
	pid: number;
	tid: number;
	ts: number;
	dur?: number;
	tdur?: number;
	args?: { name?: string };
}

export interface MainThreadTrace {
	/** Ends the trace and returns the renderer main threads' tasks, in start order. */
	stop(): Promise<MainThreadTask[]>;
}

export async function traceMainThread(page: Page): Promise<MainThreadTrace> {
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Tracing.start', {
		transferMode: 'ReturnAsStream',
		traceConfig: {
			includedCategories: ['toplevel', '__metadata'],
			recordMode: 'recordUntilFull',
			traceBufferSizeInKb: TRACE_BUFFER_KB
		}
	});
	return {
		async stop() {
			try {
				return mainThreadTasks(await endTrace(cdp));
			} finally {
				await cdp.detach().catch(() => {});
			}
		}
	};
}

async function endTrace(cdp: CDPSession): Promise<TraceEvent[]> {
	const complete = new Promise<{ stream?: string }>((resolve) =>
		cdp.once('Tracing.tracingComplete', resolve)
	);
	await cdp.send('Tracing.end');
	const { stream } = await complete;
	if (!stream) throw new Error('Chromium ended the trace without a stream');
	const chunks: string[] = [];
	for (;;) {
		const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
		chunks.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data);
		if (chunk.eof) break;
	}
	await cdp.send('IO.close', { handle: stream });
	const parsed = JSON.parse(chunks.join('')) as TraceEvent[] | { traceEvents: TraceEvent[] };
	return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** Complete task events on renderer main threads; one task's nested wrappers count once. */
export function mainThreadTasks(events: readonly TraceEvent[]): MainThreadTask[] {
	const main = new Set<string>();
	for (const e of events) {
		if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === RENDERER_MAIN) {
			main.add(`${e.pid}:${e.tid}`);
		}
	}
	const tasks: MainThreadTask[] = [];
	/** Per thread, where the task counted last ends. */
	const openUntil = new Map<string, number>();
	const sorted = events
		.filter((e) => e.ph === 'X' && TASK_EVENTS.has(e.name) && main.has(`${e.pid}:${e.tid}`))
		.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
	for (const e of sorted) {
		const thread = `${e.pid}:${e.tid}`;
		// A wrapper inside the task just counted (same thread, inside its span) is the same task.
		if (e.ts < (openUntil.get(thread) ?? -Infinity)) continue;
		const dur = e.dur ?? 0;
		tasks.push({
			startUs: e.ts,
			wallMs: dur / 1000,
			cpuMs: e.tdur === undefined ? null : e.tdur / 1000
		});
		openUntil.set(thread, e.ts + dur);
	}
	return tasks;
}

/** Main-thread tasks each with a CPU time, measured or bounded (cpuBounded). */
export interface CpuBounded {
	tasks: (MainThreadTask & { cpuMs: number })[];
	/** Tasks the trace gave no CPU time, counted at their wall time. */
	untimed: number;
	/** The longest of those, wall time. */
	untimedLongestMs: number;
}

/**
 * Every task with a CPU time: its own, or where the trace leaves it off, its wall time, which the
 * CPU time of a task on one thread cannot exceed. Chromium 156.0.8078.108 leaves tdur off its
 * shortest tasks (286 of 2,887 main-thread tasks of one page load, each 1–2 µs), where
 * 156.0.8078.73 gave it on every one. null when no task has one: this platform's trace has no
 * thread time, and wall times would be passed off as CPU.
 */
export function cpuBounded(tasks: readonly MainThreadTask[]): CpuBounded | null {
	if (!tasks.some((t) => t.cpuMs !== null)) return null;
	const untimed = tasks.filter((t) => t.cpuMs === null);
	return {
		tasks: tasks.map((t) => ({ ...t, cpuMs: t.cpuMs ?? t.wallMs })),
		untimed: untimed.length,
		untimedLongestMs: untimed.reduce((max, t) => Math.max(max, t.wallMs), 0)
	};
}
