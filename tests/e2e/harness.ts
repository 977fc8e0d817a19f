/**
 * A deliberately small scenario runner: scenarios run one after another (they share one Chromium and
 * one static server), each under its own time limit, and the summary ends with the line CI reads.
 * Playwright Test is not installed (only playwright-core), and a plain runner keeps `npm test` free
 * of browser work.
 */

/** A failed expectation, with the message a person needs to see in CI. */
export class E2EFailure extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'E2EFailure';
	}
}

/** Throw an E2EFailure unless `ok`. */
export function check(ok: unknown, message: string): asserts ok {
	if (!ok) throw new E2EFailure(message);
}

export interface Scenario<C> {
	/** Short, unique, used by --only and in file names. */
	id: string;
	/** What the scenario shows, as a sentence. */
	title: string;
	timeoutMs: number;
	run(ctx: C): Promise<void>;
}

export interface ScenarioResult {
	id: string;
	title: string;
	ok: boolean;
	ms: number;
	error?: string;
	notes: string[];
}

/** Called around every scenario: set up per-scenario state, collect notes, clean up. */
export interface ScenarioHooks<C> {
	before(s: Scenario<C>): Promise<C>;
	/**
	 * Runs after success or failure: notes for the summary, and a failure of its own for what a
	 * scenario cannot see from inside (an uncaught page error, a dialog).
	 */
	after(s: Scenario<C>, ctx: C, failed: boolean): Promise<{ notes: string[]; failure?: string }>;
}

class ScenarioTimeout extends Error {
	constructor(ms: number) {
		super(`scenario timed out after ${ms} ms`);
		this.name = 'ScenarioTimeout';
	}
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
	// A scenario that lost the race still fails later, as its pages close: not a crash.
	work.catch(() => {});
	let timer: ReturnType<typeof setTimeout> | undefined;
	const limit = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new ScenarioTimeout(ms)), ms);
	});
	try {
		return await Promise.race([work, limit]);
	} finally {
		clearTimeout(timer);
	}
}

function describe(err: unknown): string {
	if (err instanceof E2EFailure) return err.message;
	if (err instanceof Error) {
		// Playwright's messages carry a call log; its first lines say what was waited for.
		const lines = err.message.split('\n').slice(0, 6).join('\n    ');
		return `${err.name}: ${lines}`;
	}
	return String(err);
}

export async function runScenarios<C>(
	scenarios: Scenario<C>[],
	hooks: ScenarioHooks<C>
): Promise<ScenarioResult[]> {
	const results: ScenarioResult[] = [];
	for (const s of scenarios) {
		const started = Date.now();
		console.log(`\n▶ ${s.id}: ${s.title}`);
		let error: string | undefined;
		let notes: string[] = [];
		let ctx: C | undefined;
		try {
			ctx = await hooks.before(s);
			await withTimeout(s.run(ctx), s.timeoutMs);
		} catch (err) {
			error = describe(err);
		}
		if (ctx !== undefined) {
			try {
				const after = await hooks.after(s, ctx, error !== undefined);
				notes = after.notes;
				error ??= after.failure;
			} catch (err) {
				notes.push(`cleanup failed: ${describe(err)}`);
			}
		}
		const result = { id: s.id, title: s.title, ok: !error, ms: Date.now() - started, error, notes };
		results.push(result);
		console.log(
			`${result.ok ? '✔ passed' : '✘ FAILED'} ${s.id} (${(result.ms / 1000).toFixed(1)} s)`
		);
		if (error) console.log(`    ${error}`);
		for (const n of notes) console.log(`    note: ${n}`);
	}
	return results;
}

/** The summary; its last line is exactly `N passed, M failed`. */
export function summarize(results: ScenarioResult[], totalMs: number): string {
	const passed = results.filter((r) => r.ok).length;
	const lines = ['', '── e2e summary ──'];
	for (const r of results) {
		const secs = (r.ms / 1000).toFixed(1).padStart(6);
		lines.push(`${r.ok ? 'PASS' : 'FAIL'} ${secs} s  ${r.id}: ${r.title}`);
		if (r.error) lines.push(`              ${r.error.split('\n')[0]}`);
	}
	lines.push(`total ${(totalMs / 1000).toFixed(1)} s`);
	lines.push(`${passed} passed, ${results.length - passed} failed`);
	return lines.join('\n');
}
