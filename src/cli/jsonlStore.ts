/**
 * RunStore on plain files, for the CLI: records in OUT.jsonl (the same format the web app imports),
 * answers in OUT.answers.jsonl, the manifest in OUT.manifest.json.
 *
 * Every put is one appendFileSync of one whole line, so Ctrl-C cannot tear a record in half; a torn
 * tail from a crash (a last line without its newline) is dropped on open. A record stored twice
 * (judged after it was first written) is read back last-write-wins and compacted by `compact()`.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { RunStore } from '../lib/probe/store.ts';
import type { AnswerRecord, ProbeRecord, RunManifest } from '../lib/probe/types.ts';

export function sidecarPaths(out: string): { records: string; answers: string; manifest: string } {
	const stem = out.endsWith('.jsonl') ? out.slice(0, -'.jsonl'.length) : out;
	return { records: out, answers: `${stem}.answers.jsonl`, manifest: `${stem}.manifest.json` };
}

/** Parse whole lines only; a final line without "\n" is a torn write and is cut off the file. */
export function readJsonlLines<T>(path: string): T[] {
	if (!existsSync(path)) return [];
	const text = readFileSync(path, 'utf8');
	const end = text.lastIndexOf('\n') + 1;
	if (end < text.length) writeFileSync(path, text.slice(0, end));
	const out: T[] = [];
	for (const line of text.slice(0, end).split('\n')) {
		if (line.trim() !== '') out.push(JSON.parse(line) as T);
	}
	return out;
}

export class JsonlStore implements RunStore {
	readonly paths: ReturnType<typeof sidecarPaths>;
	readonly #records = new Map<string, ProbeRecord>();
	readonly #answers = new Map<string, AnswerRecord>();
	#manifest: RunManifest | undefined;
	#rewrites = 0;

	constructor(out: string) {
		this.paths = sidecarPaths(out);
		for (const r of readJsonlLines<ProbeRecord>(this.paths.records)) {
			if (this.#records.has(r.key)) this.#rewrites++;
			this.#records.set(r.key, r);
		}
		for (const a of readJsonlLines<AnswerRecord>(this.paths.answers))
			this.#answers.set(a.item_id, a);
		if (existsSync(this.paths.manifest)) {
			this.#manifest = JSON.parse(readFileSync(this.paths.manifest, 'utf8')) as RunManifest;
		}
	}

	/** The run this file already holds: re-running the same command resumes it. */
	get runId(): string | undefined {
		return this.#manifest?.run_id;
	}

	async putManifest(manifest: RunManifest): Promise<void> {
		this.#manifest = manifest;
		const tmp = `${this.paths.manifest}.tmp`;
		writeFileSync(tmp, JSON.stringify(manifest, null, '\t') + '\n');
		renameSync(tmp, this.paths.manifest);
	}

	async getManifest(runId: string): Promise<RunManifest | undefined> {
		return this.#manifest?.run_id === runId ? this.#manifest : undefined;
	}

	async getAnswer(_runId: string, itemId: string): Promise<AnswerRecord | undefined> {
		return this.#answers.get(itemId);
	}

	async putAnswer(answer: AnswerRecord): Promise<void> {
		appendFileSync(this.paths.answers, JSON.stringify(answer) + '\n');
		this.#answers.set(answer.item_id, answer);
	}

	async putRecord(record: ProbeRecord): Promise<void> {
		appendFileSync(this.paths.records, JSON.stringify(record) + '\n');
		if (this.#records.has(record.key)) this.#rewrites++;
		this.#records.set(record.key, record);
	}

	async getRecords(runId: string): Promise<ProbeRecord[]> {
		return [...this.#records.values()].filter((r) => r.run_id === runId);
	}

	/** Rewrite the records file with one line per key (atomic rename), if anything was stored twice. */
	compact(): void {
		if (this.#rewrites === 0) return;
		const tmp = `${this.paths.records}.tmp`;
		writeFileSync(tmp, [...this.#records.values()].map((r) => JSON.stringify(r) + '\n').join(''));
		renameSync(tmp, this.paths.records);
		this.#rewrites = 0;
	}
}
