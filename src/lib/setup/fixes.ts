/**
 * What to do when starting a run fails, or runs without its scoring data, for a reason the user can
 * route around: no chat template, a dataset host or NLTK's data host out of reach. One set of sentences for both shells; each
 * names its own controls (the CLI's flags, set-up's fields), so the CLI and the app say the same
 * thing where the same thing fails.
 */
import { DatasetError } from '../datasets/errors.ts';
import { describeError } from '../errors/describe.ts';
import { TemplateError } from '../probe/templateError.ts';
import { SHIPPED_FAMILIES } from '../templates/families.ts';

/** How a shell names the choices a fix points to. */
export interface ChoiceNames {
	/** Where a chat template is named (a repo, a URL or a file). */
	template: string;
	/** The built-in dataset that needs no network. */
	demo: string;
	/** The user's own dataset file. */
	file: string;
	/** Where NLTK's data is read from (a mirror); undefined where the shell has no such setting. */
	nltk?: string;
}

export const CLI_CHOICES: ChoiceNames = {
	template: '--template <repo|url|file>',
	demo: '--dataset demo',
	file: '--dataset <file.jsonl|.json|.csv>',
	nltk: '--nltk-data-url (and --syllapy-url) at a mirror of the files'
};

export const APP_CHOICES: ChoiceNames = {
	template: 'Chat template of the generator (a Hugging Face repo, a URL or a file)',
	demo: 'the Demo dataset',
	file: 'your own file (Dataset: My file)'
};

/** Every repo whose chat template ships with the app, so naming it needs no network. */
export function shippedRepoList(): string {
	return SHIPPED_FAMILIES.flatMap((f) => f.repos).join(', ');
}

/** The fix for a missing chat template, in `names`' words. */
export function noTemplateFix(names: ChoiceNames): string {
	return `Name one with ${names.template}; these ship with the app and need no network: ${shippedRepoList()}.`;
}

/** The fix for `err` in `names`' words; undefined when it has none to offer. */
export function fixOf(err: unknown, names: ChoiceNames): string | undefined {
	if (err instanceof TemplateError && err.missing) return noTemplateFix(names);
	if (err instanceof DatasetError && err.unreachable)
		return `${capital(names.demo)} is built in and runs offline; ${names.file} works too.`;
	return undefined;
}

/**
 * After NLTK's English data could not be loaded (a warning: the run goes on without it), how to
 * have it next time, or do without.
 */
export function nlpFix(names: ChoiceNames): string {
	const reach = names.nltk
		? `point ${names.nltk}`
		: 'check that this device can reach raw.githubusercontent.com';
	return `Before the next run, ${reach}, or choose ${names.demo}, which needs no NLTK data.`;
}

/** The error's message and what to do: its own recovery, then the fix in `names`' words. */
export function describeWithFix(
	err: unknown,
	names: ChoiceNames
): { message: string; recovery?: string } {
	const { message, recovery } = describeError(err);
	const all = [recovery, fixOf(err, names)].filter((s) => s !== undefined && s !== '').join(' ');
	return { message, recovery: all || undefined };
}

/** One line for a status area: the message, then what to do. */
export function errorTextWithFix(err: unknown, names: ChoiceNames): string {
	const { message, recovery } = describeWithFix(err, names);
	return recovery ? `${message} ${recovery}` : message;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
