/**
 * How any failure is put into words: its name, its message and, for the app's own errors, what
 * to do next. Views, the CLI and the run's error events all describe errors through here.
 */
import { AppError } from './appError.ts';

export interface ErrorDescription {
	name: string;
	message: string;
	/** What to do next; absent when the error does not say. */
	recovery?: string;
}

/**
 * Said beside a network failure on a cross-origin-isolated page (the app's service worker isolates
 * it for the CPU engine's threads): isolation is rarely the cause, but the person can rule it out.
 */
export const ISOLATION_NOTE =
	'This page is cross-origin isolated (for the CPU engine’s threads), which changes nothing for a host that allows cross-origin requests; if this one works only without it, untick “Cross-origin isolation” under “This device (CPU)” in set-up.';

const isolatedHere = () =>
	(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;

export function describeError(err: unknown): ErrorDescription {
	if (err instanceof AppError) {
		const notes = [err.recovery, err.code === 'network' && isolatedHere() ? ISOLATION_NOTE : ''];
		const recovery = notes.filter((n) => n !== '').join(' ');
		return { name: err.name, message: err.message, recovery: recovery || undefined };
	}
	if (err instanceof Error) return { name: err.name, message: err.message };
	return { name: 'Error', message: String(err) };
}

/** One line for a status area: the message, then what to do, when the error says. */
export function errorText(err: unknown): string {
	const { message, recovery } = describeError(err);
	return recovery ? `${message} ${recovery}` : message;
}
