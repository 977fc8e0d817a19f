/**
 * Limits on rendering a chat template, which is user-supplied code: a template can loop for hours,
 * build a list of a billion numbers (a fatal out-of-memory in V8) or emit gigabytes. Rendering is
 * synchronous, so nothing outside can stop it once it runs; the interpreter checks the clock and
 * the size of what it built as it goes, and stops with a TemplateLimitError that names the limits.
 * A real chat template renders in milliseconds and its prompt fits a model's context window, so the
 * limits are far above anything legitimate.
 */
import { Interpreter, type Environment } from '@huggingface/jinja';
import { TemplateError } from './templateError.ts';

/** One template check or one prompt render, together. */
export const RENDER_TIME_LIMIT_MS = 2_000;
/** Characters of any value a render builds: 4 M characters is about a million tokens. */
export const RENDER_MAX_CHARS = 4_000_000;
/**
 * Items in any list a render makes or loops over (range(), split(), messages). A template ranges
 * over messages or a few indices; and the interpreter spends ~13 µs per loop iteration without
 * reading the clock, so this bounds how long one loop can run unchecked (~0.1 s).
 */
export const LIST_MAX_ITEMS = 10_000;

const LIMITS_TEXT =
	`a chat template may take ${RENDER_TIME_LIMIT_MS / 1000} s and build ` +
	`${RENDER_MAX_CHARS.toLocaleString('en')} characters per render, in lists of up to ` +
	`${LIST_MAX_ITEMS.toLocaleString('en')} items`;

/** The template ran past a limit: it loops, or builds more than any prompt needs. */
export class TemplateLimitError extends TemplateError {
	constructor(what: string) {
		super(`Chat template stopped: ${what} (${LIMITS_TEXT}). Check it for a runaway loop.`);
		this.name = 'TemplateLimitError';
	}
}

/**
 * An input longer than any render may build: the conversation, not the template, is at fault (a
 * server that sent a 10 MB answer, a 5 MB question in a dataset).
 */
export class RenderInputTooLongError extends TemplateError {
	constructor(what: string, chars: number) {
		super(
			`The ${what} is ${chars.toLocaleString('en')} characters; with it the prompt would pass the ` +
				`${RENDER_MAX_CHARS.toLocaleString('en')} characters a chat template may build per render, ` +
				`so it was not rendered (the template is not at fault).`
		);
		this.name = 'RenderInputTooLongError';
	}
}

/** What each turn of a probe conversation is, for people: the question, the answer, a user turn. */
function inputName(role: string, index: number, firstUser: number): string {
	if (role === 'system') return 'system prompt';
	if (role === 'assistant') return 'answer';
	return index === firstUser ? 'question' : 'user turn';
}

/**
 * Refuse, before rendering, a conversation whose texts alone pass RENDER_MAX_CHARS, naming the
 * longest input and its size.
 * @throws RenderInputTooLongError
 */
export function checkRenderInputs(messages: readonly { role: string; content: unknown }[]): void {
	const lengths = messages.map((m) => (typeof m.content === 'string' ? m.content.length : 0));
	if (lengths.reduce((a, b) => a + b, 0) <= RENDER_MAX_CHARS) return;
	const longest = lengths.indexOf(Math.max(...lengths));
	const firstUser = messages.findIndex((m) => m.role === 'user');
	throw new RenderInputTooLongError(
		inputName(messages[longest].role, longest, firstUser),
		lengths[longest]
	);
}

type Program = Parameters<Interpreter['run']>[0];
type Value = ReturnType<Interpreter['run']>;

/** An Interpreter that stops at the limits above; `deadline` is in performance.now() ms. */
class BoundedInterpreter extends Interpreter {
	readonly #deadline: number;

	constructor(env: Environment, deadline: number) {
		super(env);
		this.#deadline = deadline;
	}

	override evaluate(statement: Parameters<Interpreter['evaluate']>[0], env: Environment): Value {
		checkClock(this.#deadline);
		const out = super.evaluate(statement, env);
		const v: unknown = out.value;
		if (typeof v === 'string' && v.length > RENDER_MAX_CHARS)
			throw new TemplateLimitError(
				`it built a text of ${v.length.toLocaleString('en')} characters`
			);
		if (Array.isArray(v) && v.length > LIST_MAX_ITEMS) throw tooManyItems('a list', v.length);
		return out;
	}
}

/** The deadline shared by nested renders (a template check renders several conversations). */
let sharedDeadline: number | undefined;

/**
 * Run `fn` with every render inside it sharing one time limit, unless an outer call set one.
 * @throws TemplateLimitError when the renders inside take longer together.
 */
export function withRenderDeadline<T>(fn: () => T): T {
	if (sharedDeadline !== undefined) return fn();
	sharedDeadline = performance.now() + RENDER_TIME_LIMIT_MS;
	try {
		return fn();
	} finally {
		sharedDeadline = undefined;
	}
}

/** Run a parsed template within the limits. @throws TemplateLimitError past one. */
export function runBounded(program: Program, env: Environment): Value {
	return withRenderDeadline(() => new BoundedInterpreter(env, sharedDeadline ?? 0).run(program));
}

function checkClock(deadline: number): void {
	if (performance.now() > deadline) throw renderTimeLimitError();
}

/** The render ran past the time limit (also what a worker terminated at it reports). */
export function renderTimeLimitError(): TemplateLimitError {
	return new TemplateLimitError(`it ran longer than ${RENDER_TIME_LIMIT_MS / 1000} s`);
}

/** Python's range(), refusing more items than a template needs before allocating them. */
export function boundedRange(start: number, stop?: number, step = 1): number[] {
	const [from, to] = stop === undefined ? [0, start] : [start, stop];
	if (step === 0) throw new TemplateError('range() step must not be zero');
	const count = Math.max(0, Math.ceil((to - from) / step));
	if (count > LIST_MAX_ITEMS) throw tooManyItems('range()', count);
	const out: number[] = [];
	for (let i = from; step > 0 ? i < to : i > to; i += step) out.push(i);
	return out;
}

function tooManyItems(what: string, n: number): TemplateLimitError {
	return new TemplateLimitError(
		`${what} of ${n.toLocaleString('en')} items, more than the ` +
			`${LIST_MAX_ITEMS.toLocaleString('en')} a list may hold`
	);
}
