/**
 * The judge's part of a run for one record: its label, and its comparison with the human's next
 * turn when the item has one (referenceJudge.ts). The pipeline decides when; this says how, and
 * what a record still waits for.
 */
import type { ProbeEvent } from './events.ts';
import { comparedToReference, labelledByJudge } from './records.ts';
import { awaitsComparison } from './plan.ts';
import type { EngineCalls } from './requests.ts';
import type { JudgeMode, ProbeRecord } from './types.ts';

export class JudgeStep {
	readonly #calls: EngineCalls;
	readonly #mode: JudgeMode;
	readonly #emit: (e: ProbeEvent) => void;
	readonly #onError: (err: unknown, record: ProbeRecord) => void;
	/** The label prompt's hash, stored on each judged record; known once the run starts. */
	promptHash = '';

	/** `onError` reports a failed comparison, and throws when the failure stops the run. */
	constructor(
		calls: EngineCalls,
		mode: JudgeMode,
		run: {
			emit: (e: ProbeEvent) => void;
			onError: (err: unknown, record: ProbeRecord) => void;
		}
	) {
		this.#calls = calls;
		this.#mode = mode;
		this.#emit = run.emit;
		this.#onError = run.onError;
	}

	/** Still needs the judge: a label, or the comparison with its reference turn. */
	awaits(record: ProbeRecord): boolean {
		return record.label === null || awaitsComparison(record, this.#mode);
	}

	/** The record labelled by the judge. */
	async label(record: ProbeRecord): Promise<ProbeRecord> {
		const { key, item_id } = record;
		this.#emit({ type: 'stage', stage: 'judge', item_id, key });
		const { verdict, usage } = await this.#calls.judge(record);
		const { label, rationale } = verdict;
		this.#emit({ type: 'judged', key, label, source: 'judge', rationale });
		return labelledByJudge(record, verdict, this.promptHash, usage);
	}

	/**
	 * The record compared with its reference turn when it has one still to compare. A failed call
	 * goes to `onError` and leaves the comparison pending, to be redone by the judge phase or a
	 * resume; the label stands either way.
	 */
	async compareIfDue(record: ProbeRecord): Promise<ProbeRecord> {
		const reference_turn = record.reference_turn;
		if (reference_turn === undefined || !awaitsComparison(record, this.#mode)) return record;
		this.#emit({ type: 'stage', stage: 'judge', item_id: record.item_id, key: record.key });
		try {
			return comparedToReference(record, await this.#calls.compare({ ...record, reference_turn }));
		} catch (err) {
			this.#onError(err, record);
			return record;
		}
	}
}
