/**
 * "Hugging Face is blocked": a failure to reach huggingface.co at all (a school or office firewall,
 * or no network), told apart from the Hub answering with an error (a 404 is a wrong name, not a
 * block). Read from the words of the error, since it reaches the UI as text from several layers
 * (an engine's worker, the template loader, the dataset loader).
 */
const HUB = /huggingface\.co/i;
const UNREACHABLE =
	/failed to fetch|could not be reached|cannot be reached|network ?error|load failed|ERR_[A-Z_]+|internet|offline|blocked/i;
/** An HTTP status in the message: the Hub answered, so it is not blocked. */
const ANSWERED = /\b(?:HTTP|status|answered)\s*:?\s*[1-5]\d\d\b/i;

export function isHubBlocked(e: { message: string; recovery?: string } | string | null): boolean {
	if (!e) return false;
	const message = typeof e === 'string' ? e : e.message;
	const text = typeof e === 'string' ? e : `${e.message} ${e.recovery ?? ''}`;
	return HUB.test(text) && UNREACHABLE.test(text) && !ANSWERED.test(message);
}

/** What to do when models cannot download from the Hub here. */
export const HUB_BLOCKED_RECOVERY =
	'If huggingface.co is blocked on this network (a school or office firewall) or this device is offline, models cannot download here: open a shared or example run (no GPU needed), see what the model sees, or use an OpenAI-compatible server. Otherwise retry; files already downloaded stay cached.';
