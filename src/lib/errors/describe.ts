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

export function describeError(err: unknown): ErrorDescription {
	if (err instanceof AppError) {
		return { name: err.name, message: err.message, recovery: err.recovery || undefined };
	}
	if (err instanceof Error) return { name: err.name, message: err.message };
	return { name: 'Error', message: String(err) };
}

/** One line for a status area: the message, then what to do, when the error says. */
export function errorText(err: unknown): string {
	const { message, recovery } = describeError(err);
	return recovery ? `${message} ${recovery}` : message;
}
