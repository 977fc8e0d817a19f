/**
 * What a run must have stored, read from IndexedDB through any PageEvaluator: shared by the
 * Chromium e2e (resume, cpu-run) and the Firefox/WebKit steps (tests/browsers), whose drivers
 * reload and click each their own way and pass that in.
 */
import { check, E2EFailure } from './harness.ts';
import { pollRun, recordStamps, storedRun, type PageEvaluator, type StoredRun } from './idb.ts';

export interface MidRunReload {
	/** The run as stored right after the reload. */
	after: StoredRun;
	/** key → created_at of the records stored before the reload, to compare after Resume. */
	kept: Record<string, string>;
}

export interface MidRunOptions {
	planned: number;
	/** Records stored before the reload. */
	atLeast: number;
	timeoutMs: number;
	intervalMs: number;
	/** The driver's reload, which must return once the page has loaded again. */
	reload: () => Promise<void>;
}

/** Reload once `atLeast` (not all) records are stored; nothing stored before may be lost. */
export async function reloadMidRun(
	page: PageEvaluator,
	runId: string,
	opts: MidRunOptions
): Promise<MidRunReload> {
	const { planned, atLeast, timeoutMs, intervalMs } = opts;
	const midway = await pollRun(page, runId, (r) => r.records >= atLeast, timeoutMs, intervalMs);
	check(
		midway && midway.records >= atLeast,
		`fewer than ${atLeast} records stored within ${timeoutMs / 1000} s (${JSON.stringify(midway)})`
	);
	check(
		midway.records < planned,
		`the run finished before the reload (${midway.records} of ${planned} records)`
	);
	await opts.reload();
	const kept = await recordStamps(page, runId);
	const after = await storedRun(page, runId);
	check(after && after.records >= midway.records, 'records stored before the reload were lost');
	return { after, kept };
}

/** After Resume: exactly the planned records, none twice, none stored before the reload remade. */
export async function checkResumed(
	page: PageEvaluator,
	done: StoredRun,
	planned: number,
	kept: Record<string, string>
): Promise<void> {
	check(done.records === planned, `after Resume: ${done.records} records, planned ${planned}`);
	check(done.distinctKeys === planned, `after Resume: ${done.distinctKeys} distinct keys`);
	const final = await recordStamps(page, done.run_id);
	const remade = Object.keys(kept).filter((k) => final[k] !== kept[k]);
	check(
		remade.length === 0,
		`records stored before the reload were made again: ${remade.join(', ')}`
	);
}

export interface JudgedTurn {
	user_turn: string;
	label: string | null;
	label_source: string | null;
	judge_raw: string | null;
}

export const JUDGED_TURN_FIELDS = ['user_turn', 'label', 'label_source', 'judge_raw'] as const;

/** Every record judged by the LLM in JSON, with no ChatML stop token left in its user turn. */
export function checkJudgedTurns(turns: readonly JudgedTurn[]): void {
	for (const t of turns) {
		check(
			!t.user_turn.includes('<|im_end|>'),
			`a stored user turn contains <|im_end|> (the stop was not honoured): ${t.user_turn}`
		);
		check(
			t.label_source === 'judge' && t.label !== null,
			`a record was not labelled by the judge: ${JSON.stringify(t)}`
		);
		let parsed: unknown;
		try {
			parsed = JSON.parse(t.judge_raw ?? '');
		} catch {
			parsed = undefined;
		}
		if (typeof parsed !== 'object' || parsed === null) {
			throw new E2EFailure(`a judge reply is not a JSON object: ${t.judge_raw}`);
		}
	}
}
