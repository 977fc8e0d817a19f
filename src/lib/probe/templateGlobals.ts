/**
 * The globals a chat template sees when it renders: jinja's constants, `raise_exception`, a bounded
 * `range`, and `strftime_now` pinned to the run's date_string (so a prompt never depends on today),
 * with the date parsing and the strftime subset chat templates use.
 */
import { boundedRange } from './renderLimits.ts';
import { TemplateError } from './templateError.ts';

const MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December'
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The globals @huggingface/jinja's Template.render installs, rebuilt here because render() offers
 * no way to replace its strftime_now (which reads the clock) with one pinned to date_string.
 */
export function jinjaGlobals(dateString: string): Record<string, unknown> {
	return {
		false: false,
		true: true,
		none: null,
		False: false,
		True: true,
		None: null,
		raise_exception: (message: unknown) => {
			throw new TemplateError(`Chat template raised an error: ${String(message)}`);
		},
		range: boundedRange,
		strftime_now: (format: unknown) => strftime(parseDate(dateString), String(format))
	};
}

/** "26 Jul 2024", "26 July 2024" or "2024-07-26", as a UTC midnight. */
function parseDate(text: string): Date {
	const dmy = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text.trim());
	const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
	let parts: [number, number, number] | null = null;
	if (dmy) {
		const month = MONTHS.findIndex((m) => {
			const name = dmy[2].toLowerCase();
			return m.toLowerCase() === name || m.slice(0, 3).toLowerCase() === name;
		});
		if (month >= 0) parts = [Number(dmy[3]), month, Number(dmy[1])];
	} else if (iso) {
		parts = [Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])];
	}
	const date = parts ? new Date(Date.UTC(...parts)) : null;
	if (!parts || !date || date.getUTCDate() !== parts[2] || date.getUTCMonth() !== parts[1]) {
		throw new TemplateError(`date_string ${JSON.stringify(text)} is not a date like "26 Jul 2024"`);
	}
	return date;
}

/** The strftime subset chat templates use, in the C locale (English names, midnight). */
function strftime(date: Date, format: string): string {
	const pad = (n: number) => String(n).padStart(2, '0');
	const fields: Record<string, string> = {
		Y: String(date.getUTCFullYear()),
		y: pad(date.getUTCFullYear() % 100),
		m: pad(date.getUTCMonth() + 1),
		'-m': String(date.getUTCMonth() + 1),
		d: pad(date.getUTCDate()),
		'-d': String(date.getUTCDate()),
		b: MONTHS[date.getUTCMonth()].slice(0, 3),
		B: MONTHS[date.getUTCMonth()],
		a: WEEKDAYS[date.getUTCDay()].slice(0, 3),
		A: WEEKDAYS[date.getUTCDay()],
		H: '00',
		M: '00',
		S: '00',
		'%': '%'
	};
	return format.replace(/%(-?[A-Za-z%])/g, (token, code: string) => fields[code] ?? token);
}
