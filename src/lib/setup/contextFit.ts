/**
 * Whether a run's longest prompt and its user turn fit a model's context window, before it starts.
 * The longest prompt is the probe prompt: the question and the chat template (PROMPT_ALLOWANCE)
 * around an answer of the run's answer limit; the user turn (max_tokens) must fit after it. The
 * same rule sizes the answer limit (runConfig.ts answerTokenLimit), so an automatic limit fits
 * unless the window is smaller than its floor; a typed limit may not.
 */
import { PROMPT_ALLOWANCE, answerTokenLimit } from '../probe/runConfig.ts';

/** What a model's context window is known to be at set-up. */
export type ContextWindowState =
	| { state: 'known'; tokens: number; source?: string }
	/** The server is being asked. */
	| { state: 'asking' }
	/** The engine does not say (a server that tells neither max_model_len nor /props n_ctx). */
	| { state: 'not reported' };

export interface ContextFit {
	window: number;
	/** The answer limit the run will use with this window. */
	answer_max_tokens: number;
	/** Tokens the longest probe prompt plus the user turn may take. */
	needed: number;
	fits: boolean;
}

/** The fit in a known window; null when the window is not known (nothing to warn of). */
export function contextFit(
	v: { answer_max_tokens: number; answer_tokens_auto: boolean; max_tokens: number },
	contextWindow: number | undefined
): ContextFit | null {
	if (!(contextWindow && contextWindow > 0)) return null;
	const answer = answerTokenLimit(v, contextWindow);
	const needed = answer + v.max_tokens + PROMPT_ALLOWANCE;
	return {
		window: contextWindow,
		answer_max_tokens: answer,
		needed,
		fits: needed <= contextWindow
	};
}

/** "8,192 tokens (max_model_len in /v1/models)", "not reported by the server", "asking…". */
export function describeWindow(w: ContextWindowState): string {
	if (w.state === 'asking') return 'asking the server…';
	if (w.state === 'not reported') return 'not reported by the server';
	const tokens = `${w.tokens.toLocaleString('en')} tokens`;
	return w.source ? `${tokens} (${w.source})` : tokens;
}

/** Why a run will not fit, for the warning; null when it fits or the window is unknown. */
export function misfitText(fit: ContextFit | null): string | null {
	if (!fit || fit.fits) return null;
	const n = (x: number) => x.toLocaleString('en');
	return (
		`The longest prompt (${n(fit.answer_max_tokens)} answer tokens plus about ` +
		`${n(PROMPT_ALLOWANCE)} for the question and template) and the user turn need ` +
		`${n(fit.needed)} tokens, more than the ${n(fit.window)}-token context window: ` +
		'long answers will fail. Lower the answer limit or the user-turn tokens.'
	);
}
