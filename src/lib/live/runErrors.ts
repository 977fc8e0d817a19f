/**
 * The errors a run shows in its live view: the view's shape of one, its heading, the warning that
 * NLTK's data is missing, a failed start, and the refusal of a second run in the same tab.
 */
import { AppError } from '../errors/appError.ts';
import { describeError } from '../errors/describe.ts';
import { nlpUnavailableWarning } from '../nlp/warning.ts';
import { APP_CHOICES, nlpFix } from '../setup/fixes.ts';

export interface RunErrorView {
	stage: string;
	name: string;
	message: string;
	recovery?: string;
	fatal: boolean;
	key?: string;
}

export class RunActiveError extends AppError {
	constructor(runId: string) {
		super(`Run ${runId} is still active in this tab. Pause or cancel it first.`, {
			code: 'run_active'
		});
		this.name = 'RunActiveError';
	}
}

/** The stage of the warning that NLTK's English data is not loaded: a run-wide note, no item's. */
const NLP_STAGE = 'scoring';

/**
 * The heading of an error in the run view: a fatal one stopped the run, a per-item one skipped
 * that item, and the scoring warning (NLTK's data not loaded) skipped nothing.
 */
export function errorHeading(e: RunErrorView): string {
	if (e.fatal) return 'The run stopped';
	if (e.stage === NLP_STAGE) return 'Some answers are not scored';
	return `Skipped ${e.key ?? 'an item'}`;
}

/** The run goes on without NLTK's data; the items that need it are unscored, and this says why. */
export function nlpWarning(reason: string): RunErrorView {
	const { message, consequence } = nlpUnavailableWarning(reason);
	return {
		stage: NLP_STAGE,
		name: 'NlpUnavailable',
		message,
		recovery: `${consequence} ${nlpFix(APP_CHOICES)}`,
		fatal: false
	};
}

export function startError(err: unknown): RunErrorView {
	return { stage: 'start', ...describeError(err), fatal: true };
}
