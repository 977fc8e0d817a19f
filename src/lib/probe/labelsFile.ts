/**
 * A run's human labels alone, so a class can pool them: each student exports a small file from
 * their copy of a shared run and the teacher merges every file into one run (annotate/merge.ts).
 * The first line names the run; each further line is one annotation, as in the manifest's
 * `annotations`. The records are not in it: the labels only mean something on the run they name.
 */
import { ExchangeError, validateAnnotation, type Annotation } from './exchange.ts';
import { isObject } from './exchangeShapes.ts';

export const LABELS_FILE_FORMAT = 'user-turn-probe-labels';
export const LABELS_FILE_VERSION = 1;

export interface LabelsFile {
	run_id: string;
	annotations: Annotation[];
}

export function labelsToFile(f: LabelsFile): string {
	const head = {
		format: LABELS_FILE_FORMAT,
		version: LABELS_FILE_VERSION,
		run_id: f.run_id,
		annotators: [...new Set(f.annotations.map((a) => a.annotator))].sort()
	};
	const lines = f.annotations.map((a) =>
		JSON.stringify({
			key: a.key,
			annotator: a.annotator,
			label: a.label,
			...(a.verdict !== undefined ? { verdict: a.verdict } : {}),
			created_at: a.created_at,
			...(a.session_id !== undefined ? { session_id: a.session_id } : {})
		})
	);
	return [JSON.stringify(head), ...lines].join('\n') + '\n';
}

function head(text: string): unknown {
	const line = text.replace(/^\uFEFF/, '').split('\n', 1)[0];
	if (!line.includes(LABELS_FILE_FORMAT)) return undefined;
	try {
		return JSON.parse(line) as unknown;
	} catch {
		return undefined;
	}
}

/** Whether the text's first line says it is a labels file (it may still be invalid). */
export function isLabelsFile(text: string): boolean {
	const h = head(text);
	return isObject(h) && h.format === LABELS_FILE_FORMAT;
}

/** How far ahead of this clock a label's time may be: another device's clock may run fast. */
export const CLOCK_SKEW_MS = 10 * 60 * 1000;

/** An ISO 8601 date and time with a zone, as toISOString() writes ("2026-11-28T01:15:00.000Z"). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Why a label's created_at cannot be trusted, or undefined. The latest label of an annotator
 * counts (annotate/merge.ts), so a time in the future ("9999-12-31") would pin a label for good.
 */
function createdAtProblem(value: unknown, now: number): string | undefined {
	if (typeof value !== 'string') return undefined; // the shape check says it
	const at = Date.parse(value);
	if (!ISO_TIME.test(value) || !Number.isFinite(at))
		return `created_at ${JSON.stringify(value)} is not an ISO 8601 time (like 2026-01-31T12:00:00Z)`;
	if (at > now + CLOCK_SKEW_MS)
		return `created_at ${JSON.stringify(value)} is in the future; a label's time is when it was given`;
	return undefined;
}

/**
 * Reads a labels file, all or nothing. `now` is the clock a created_at may not run ahead of.
 * @throws ExchangeError with every problem, located ("line 3: …").
 */
export function labelsFromFile(text: string, now: () => number = Date.now): LabelsFile {
	const h = head(text);
	if (!isObject(h) || h.format !== LABELS_FILE_FORMAT) {
		throw new ExchangeError([
			`line 1: not a labels file (expected "format": "${LABELS_FILE_FORMAT}")`
		]);
	}
	if (h.version !== LABELS_FILE_VERSION) {
		throw new ExchangeError([
			`line 1: labels file version ${JSON.stringify(h.version)}; this app reads version ${LABELS_FILE_VERSION}`
		]);
	}
	if (typeof h.run_id !== 'string' || h.run_id === '') {
		throw new ExchangeError(['line 1: no run_id']);
	}
	const runId = h.run_id;
	const problems: string[] = [];
	const annotations: Annotation[] = [];
	const lines = text.replace(/^\uFEFF/, '').split('\n');
	for (let i = 1; i < lines.length; i++) {
		if (lines[i].trim() === '') continue;
		let value: unknown;
		try {
			value = JSON.parse(lines[i]);
		} catch (e) {
			problems.push(`line ${i + 1}: not valid JSON (${(e as Error).message})`);
			continue;
		}
		const a = isObject(value) ? { ...value, run_id: runId } : value;
		const wrong = validateAnnotation(a);
		const time = createdAtProblem(isObject(a) ? a.created_at : undefined, now());
		if (wrong.length === 0 && time) wrong.push(time);
		if (wrong.length > 0) problems.push(...wrong.map((p) => `line ${i + 1}: ${p}`));
		else annotations.push(a as Annotation);
	}
	if (problems.length > 0) throw new ExchangeError(problems);
	return { run_id: runId, annotations };
}
