/**
 * A teacher's class link, `#/?examples=<url of an index.json>`: the first screen's examples become
 * the runs the teacher hosts, so one link serves a whole class. The index has the format of
 * static/examples/index.json; it is fetched as a shared run is (openRun.ts), and every failure is
 * said in words: the host's status, JSON that does not parse, a host that blocks other sites
 * (CORS) or does not answer in time.
 */
import { AppError } from '../errors/appError.ts';
import { listHostedExamples, type ExampleRun } from './examples.ts';
import { fetchLinkedText, type Fetch } from './openRun.ts';

/** A list of runs is small: a host that has not sent it by then is not going to. */
export const CLASS_INDEX_TIMEOUT_MS = 15_000;

export class ClassLinkError extends AppError {
	constructor(message: string) {
		super(message, { code: 'class_link' });
		this.name = 'ClassLinkError';
	}
}

export interface ClassExamples {
	examples: ExampleRun[];
	/** Entries left out, and why: shown to the teacher under the list. */
	problems: string[];
}

/**
 * @throws OpenRunError when the index cannot be fetched; ClassLinkError when it is not JSON or
 * lists no run that can be opened; the caller's AbortError when `signal` cancels.
 */
export async function fetchClassExamples(
	raw: string,
	fetchFn: Fetch,
	signal?: AbortSignal,
	timeoutMs = CLASS_INDEX_TIMEOUT_MS
): Promise<ClassExamples> {
	const text = await fetchLinkedText(raw, fetchFn, signal, timeoutMs);
	let index: unknown;
	try {
		index = JSON.parse(text);
	} catch {
		throw new ClassLinkError(
			`The class link's list (${raw}) is not JSON. It should look like {"examples": [{"file": "…run.jsonl", "title", "model", "device", "date"}]}.`
		);
	}
	const { examples, problems } = listHostedExamples(index, new URL(raw.trim()).href);
	if (examples.length === 0) {
		const why = problems.length > 0 ? ` ${problems.slice(0, 3).join('; ')}.` : '';
		throw new ClassLinkError(`The class link's list names no run that can be opened.${why}`);
	}
	return { examples, problems };
}
