/** The typed events `runProbe` yields. The Svelte views and the CLI render exactly these. */
import type { LoadProgress } from './engine.ts';
import type { AnswerRecord, Label, ProbeRecord, RuleLabel } from './types.ts';

export type Stage = 'answer' | 'user_turn' | 'judge';

export type ProbeEvent =
	/** First event: what the run will make, and what is already stored (resume). */
	| {
			type: 'plan';
			items: number;
			conditions: number;
			total: number;
			already_done: number;
			/** Generator and judge take turns on the device: all generation, then all judging. */
			phased: boolean;
			/** Generation requests in flight at most (the engine's own limit unless the run sets one). */
			concurrency: number;
	  }
	| { type: 'phase'; phase: 'generate' | 'judge' }
	/** `at`: the run's clock when the engine reported it (a download's speed is timed from it). */
	| { type: 'loading'; models: string[]; progress?: LoadProgress; at?: number }
	| { type: 'loaded'; models: string[]; ms: number }
	| { type: 'stage'; stage: Stage; item_id: string; key?: string }
	| { type: 'token'; stage: Stage; item_id: string; key?: string; delta: string }
	/**
	 * The engine will ask again after a transient failure (429, 5xx, a reply that broke or stalled
	 * mid-stream): the tokens of this stream so far are void, the retry streams from the start.
	 */
	| {
			type: 'retry';
			stage: Stage;
			item_id: string;
			key?: string;
			/** 1 for the first retry, of `of` allowed. */
			retry: number;
			of: number;
			delay_ms: number;
			message: string;
	  }
	| { type: 'answer'; answer: AnswerRecord; cached: boolean }
	| {
			type: 'user_turn';
			key: string;
			item_id: string;
			text: string;
			rule_label: RuleLabel;
			rule_reason: string;
	  }
	| { type: 'judged'; key: string; label: Label; source: 'rules' | 'judge'; rationale: string }
	| { type: 'record'; record: ProbeRecord }
	/** done: records with a label; generated: records stored (ahead of done while judging waits). */
	| {
			type: 'progress';
			done: number;
			generated: number;
			total: number;
			elapsed_ms: number;
			eta_ms: number | null;
			decode_tps: number | null;
	  }
	| {
			type: 'error';
			stage: Stage | 'load';
			item_id?: string;
			key?: string;
			name: string;
			message: string;
			/** Fatal errors stop the run; stored work stays and a rerun resumes. */
			fatal: boolean;
			/** What the person can do about it (engine errors carry one). */
			recovery?: string;
	  }
	| { type: 'done'; records: number; elapsed_ms: number; aborted: boolean };

/** The event of one type, e.g. `ProbeEventOf<'progress'>`. */
export type ProbeEventOf<T extends ProbeEvent['type']> = Extract<ProbeEvent, { type: T }>;

/**
 * Two token events of the same stream as one (the deltas concatenated), else undefined: what the
 * pipeline's channel folds while its consumer is behind. Nothing is lost: a token event is a delta.
 */
export function mergeTokens(last: ProbeEvent, next: ProbeEvent): ProbeEvent | undefined {
	if (last.type !== 'token' || next.type !== 'token') return undefined;
	if (last.stage !== next.stage || last.item_id !== next.item_id || last.key !== next.key) {
		return undefined;
	}
	return { ...last, delta: last.delta + next.delta };
}
