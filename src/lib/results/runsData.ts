/**
 * The runs view's pure parts: comparing two runs condition by condition, naming export files, and
 * sorting picked files into the parts of a run before they are parsed, and wording what went wrong.
 */
import { errorText } from '../errors/describe.ts';
import { ExchangeError } from '../probe/exchange.ts';
import { compareConditions, conditionKey } from '../stats/aggregate.ts';
import type { Condition, ConditionSummary, Interval, Rate } from '../stats/aggregate.ts';

export interface CompareRow extends Condition {
	a: ConditionSummary | null;
	b: ConditionSummary | null;
	/** Follow-up rate of b minus a, with Newcombe's interval; null unless both have labels. */
	followupDiff: Interval | null;
	/** Accuracy of b minus a; null unless both have scored items. */
	accuracyDiff: number | null;
}

/**
 * Newcombe's hybrid score interval for b − a of two independent proportions (Newcombe 1998,
 * method 10), built from the two Wilson intervals: it keeps its coverage near 0 and 1, where
 * follow-up rates live, unlike the plain Wald interval. Runs are independent samples, so no
 * pairing applies here (pairedDifference is for conditions within one run).
 */
export function newcombeDiff(a: Rate, b: Rate): Interval | null {
	if (a.n === 0 || b.n === 0) return null;
	const d = b.p - a.p;
	return {
		estimate: d,
		lo: d - Math.sqrt((b.p - b.lo) ** 2 + (a.hi - a.p) ** 2),
		hi: d + Math.sqrt((b.hi - b.p) ** 2 + (a.p - a.lo) ** 2)
	};
}

/** Every condition of either run, in condition order, with both runs' numbers side by side. */
export function compareRuns(
	a: readonly ConditionSummary[],
	b: readonly ConditionSummary[]
): CompareRow[] {
	const byKey = new Map<string, CompareRow>();
	const row = (s: ConditionSummary): CompareRow => {
		const key = conditionKey(s);
		let r = byKey.get(key);
		if (!r) {
			r = {
				temperature: s.temperature,
				perturbation: s.perturbation,
				a: null,
				b: null,
				followupDiff: null,
				accuracyDiff: null
			};
			byKey.set(key, r);
		}
		return r;
	};
	for (const s of a) row(s).a = s;
	for (const s of b) row(s).b = s;
	const rows = [...byKey.values()].sort(compareConditions);
	for (const r of rows) {
		if (!r.a || !r.b) continue;
		r.followupDiff = r.a.followup && r.b.followup ? newcombeDiff(r.a.followup, r.b.followup) : null;
		r.accuracyDiff =
			r.a.accuracy.n > 0 && r.b.accuracy.n > 0 ? r.b.accuracy.p - r.a.accuracy.p : null;
	}
	return rows;
}

/**
 * `run` is the single file a Share makes: manifest and records together (runFile.ts); `labels`
 * the run's human labels alone (labelsFile.ts).
 */
export type ExportKind = 'jsonl' | 'manifest' | 'csv' | 'run' | 'labels';

/** The CLI's names (OUT.jsonl beside OUT.manifest.json), so files move either way unchanged. */
export function exportFileName(runId: string, kind: ExportKind): string {
	const stem = runId.replace(/[^A-Za-z0-9._-]+/g, '_');
	return {
		jsonl: `${stem}.jsonl`,
		manifest: `${stem}.manifest.json`,
		csv: `${stem}.csv`,
		run: `${stem}.run.jsonl`,
		labels: `${stem}.labels.jsonl`
	}[kind];
}

export interface PickedFiles<F> {
	records?: F;
	manifest?: F;
	/** The CLI's OUT.answers.jsonl, used when the manifest carries no answers. */
	answers?: F;
	/** What is wrong with the selection; empty when records and manifest are both there. */
	problems: string[];
}

/** Sorts picked files by name into records, manifest and answers; reports what is missing or extra. */
export function pickRunFiles<F extends { name: string }>(files: readonly F[]): PickedFiles<F> {
	const out: PickedFiles<F> = { problems: [] };
	const place = (slot: 'records' | 'manifest' | 'answers', f: F) => {
		const taken = out[slot];
		if (taken) out.problems.push(`${f.name}: a second ${slot} file (${taken.name} is the first)`);
		else out[slot] = f;
	};
	for (const f of files) {
		const name = f.name.toLowerCase();
		if (name.endsWith('.answers.jsonl')) place('answers', f);
		else if (name.endsWith('.jsonl')) place('records', f);
		else if (name.endsWith('.json')) place('manifest', f);
		else out.problems.push(`${f.name}: not a run file (expected .jsonl or .manifest.json)`);
	}
	if (!out.records) out.problems.push('missing: the records file (.jsonl)');
	if (!out.manifest) out.problems.push('missing: the manifest file (.manifest.json)');
	return out;
}

/** The type each export is handed over with. */
export const EXPORT_MIME: Record<ExportKind, string> = {
	jsonl: 'application/x-ndjson',
	manifest: 'application/json',
	csv: 'text/csv',
	run: 'application/x-ndjson',
	labels: 'application/x-ndjson'
};

/** What went wrong with an import; `conflict` is the stored run_id a copy or replace resolves. */
export interface ImportFailure {
	message: string;
	problems: string[];
	conflict?: string;
}

/** Runs a parser and names the file in each problem it reports ("run.jsonl, line 3: …"). */
export function located<T>(parse: () => T, where: (problem: string) => string): T {
	try {
		return parse();
	} catch (e) {
		if (e instanceof ExchangeError) throw new ExchangeError(e.problems.map(where));
		throw e;
	}
}

export function failureOf(e: unknown): ImportFailure {
	if (e instanceof ExchangeError) {
		const n = e.problems.length;
		return {
			message: `Nothing was imported: the files have ${n === 1 ? 'a problem' : `${n} problems`}.`,
			problems: e.problems
		};
	}
	return { message: `Nothing was imported: ${errorText(e)}`, problems: [] };
}
