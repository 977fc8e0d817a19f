/**
 * Example runs shipped with the app (static/examples/): run files (.run.jsonl, what Runs → "Run
 * file (share)" exports) listed in static/examples/index.json with the model, device and date that
 * produced them. Only runs a real model produced belong there; the list starts empty. An entry whose
 * file is not shipped, or that lacks a field, is left out with a reason (for the maintainer's
 * console), so a half-added example never shows as a dead link.
 */
export interface ExampleRun {
	/** File name under static/examples/, ending in .run.jsonl. */
	file: string;
	/** One line a visitor reads: what the run shows. */
	title: string;
	/** The generator that produced it, e.g. "Qwen3-0.6B-q4f32_1-MLC". */
	model: string;
	/** Where it ran, e.g. "Apple M2, Chrome 131 (WebGPU)" or "vLLM on an A100". */
	device: string;
	/** When it ran, YYYY-MM-DD. */
	date: string;
	/** The built file's address, from the bundler. */
	url: string;
}

const FIELDS = ['file', 'title', 'model', 'device', 'date'] as const;

const SHIPPED_INDEX = 'static/examples/index.json';

/**
 * @param index the parsed static/examples/index.json
 * @param urls file name → built URL, for every .run.jsonl shipped under static/examples/
 * @param source how problems name the index (a class link names its URL)
 */
export function listExamples(
	index: unknown,
	urls: Readonly<Record<string, string>>,
	source = SHIPPED_INDEX
): { examples: ExampleRun[]; problems: string[] } {
	const problems: string[] = [];
	const entries = (index as { examples?: unknown } | null)?.examples;
	if (!Array.isArray(entries)) {
		return { examples: [], problems: [`${source}: no "examples" array`] };
	}
	const examples: ExampleRun[] = [];
	/** Each file's first entry: a file listed twice is shown once (the list is keyed by file). */
	const firstAt = new Map<string, number>();
	for (const [i, e] of entries.entries()) {
		const where = `${source}, example ${i + 1}`;
		const entry = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
		const missing = FIELDS.filter((f) => typeof entry[f] !== 'string' || entry[f] === '');
		if (missing.length > 0) {
			problems.push(`${where}: missing ${missing.join(', ')}`);
			continue;
		}
		const file = entry.file as string;
		const first = firstAt.get(file);
		if (first !== undefined) {
			problems.push(`${where}: ${file} is listed already (example ${first + 1}); left out`);
			continue;
		}
		firstAt.set(file, i);
		if (!file.endsWith('.run.jsonl')) {
			problems.push(`${where}: ${file} is not a run file (.run.jsonl)`);
			continue;
		}
		const url = urls[file];
		if (!url) {
			problems.push(`${where}: ${file} is not in ${source.replace(/[^/]*$/, '')}`);
			continue;
		}
		if (!/^\d{4}-\d{2}-\d{2}$/.test(entry.date as string)) {
			problems.push(`${where}: date "${entry.date as string}" is not YYYY-MM-DD`);
			continue;
		}
		examples.push({
			file,
			title: entry.title as string,
			model: entry.model as string,
			device: entry.device as string,
			date: entry.date as string,
			url
		});
	}
	return { examples, problems };
}

/** The #/open link of an example, absolute so the open view's https check sees the page's origin. */
export function exampleLink(example: ExampleRun, page: string): string {
	return `#/open?url=${encodeURIComponent(new URL(example.url, page).href)}`;
}

/**
 * A class's list of runs: an index.json in the same format, hosted by a teacher, its files named
 * relative to it (or by full https links). Every file the index names is taken to be there; a
 * missing one fails when opened, with the host's answer.
 */
export function listHostedExamples(
	index: unknown,
	indexUrl: string
): { examples: ExampleRun[]; problems: string[] } {
	const entries = (index as { examples?: unknown } | null)?.examples;
	const urls: Record<string, string> = {};
	for (const e of Array.isArray(entries) ? entries : []) {
		const file = (e as { file?: unknown } | null)?.file;
		if (typeof file !== 'string' || file === '') continue;
		try {
			urls[file] = new URL(file, indexUrl).href;
		} catch {
			// Left out of urls: listExamples reports the entry.
		}
	}
	return listExamples(index, urls, indexUrl);
}
