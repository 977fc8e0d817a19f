/**
 * Set-up's check of an OpenAI-compatible server before a run is created: does it answer GET
 * /models, are the chosen models among those listed, and is there a chat template. Each failure is
 * said in its own words. When nothing readable comes back, a second, opaque request (no-cors) tells
 * a server that answered but did not allow this page (CORS) from one that never answered.
 */
import { EngineError, type EngineErrorCode } from '../probe/engine.ts';
import { AbortError } from '../errors/appError.ts';
import { APP_CHOICES, errorTextWithFix, noTemplateFix } from '../setup/fixes.ts';
import type { ChatTemplate } from '../probe/template.ts';

export interface ServerCheckLine {
	what: 'server' | 'model' | 'judge' | 'template';
	ok: boolean;
	text: string;
}

export interface ServerCheck {
	ok: boolean;
	lines: ServerCheckLine[];
	/** The ids the server listed ([] when it could not be read). */
	served: string[];
	/**
	 * What a start stops with when the server or a model fails (the template line is set-up's
	 * own): an EngineError of the kind the CLI's start throws for the same fault, the list's own
	 * code (network, http, timeout) or 'bad_model' (engines/server/served.ts), in these lines'
	 * words. null when the server and the models pass.
	 */
	failure: EngineError | null;
}

export interface ServerCheckDeps {
	listModels(signal?: AbortSignal): Promise<string[]>;
	/**
	 * Whether anything at `url` answers an opaque request (fetch with mode 'no-cors' resolves): the
	 * host is up even though the page may not read it.
	 */
	answersOpaque(url: string, signal?: AbortSignal): Promise<boolean>;
	/**
	 * Loads the chat template; null when set-up has no template source (a failure line); undefined
	 * when the caller checks the template itself (no line).
	 */
	template?: (() => Promise<ChatTemplate>) | null;
}

/**
 * @throws AbortError when `signal` aborts; every other failure is a line of the result.
 */
export async function checkServer(
	opts: { baseUrl: string; model: string; judge?: string; signal?: AbortSignal },
	deps: ServerCheckDeps
): Promise<ServerCheck> {
	const root = opts.baseUrl.trim().replace(/\/+$/, '');
	const lines: ServerCheckLine[] = [];
	let served: string[];
	try {
		served = await deps.listModels(opts.signal);
	} catch (err) {
		if (err instanceof AbortError || opts.signal?.aborted) throw err;
		lines.push({ what: 'server', ok: false, text: await unreachableText(root, err, deps, opts) });
		const code = err instanceof EngineError ? err.code : 'unknown';
		return { ok: false, lines, served: [], failure: failureOf(lines, code) };
	}
	lines.push({
		what: 'server',
		ok: true,
		text: `${root} answers and lists ${served.length} model${served.length === 1 ? '' : 's'}.`
	});
	const listed = served.length > 0 ? served.join(', ') : 'none';
	const model = opts.model.trim();
	lines.push(
		!model
			? { what: 'model', ok: false, text: 'No model id entered: pick one of the served ids.' }
			: served.includes(model)
				? { what: 'model', ok: true, text: `Model '${model}' is served.` }
				: {
						what: 'model',
						ok: false,
						text: `Model '${model}' is not served here (served: ${listed}). Pick a served id, or start the server with this model.`
					}
	);
	const judge = opts.judge?.trim();
	if (judge && judge !== model) {
		lines.push(
			served.includes(judge)
				? { what: 'judge', ok: true, text: `Judge '${judge}' is served.` }
				: {
						what: 'judge',
						ok: false,
						text: `Judge '${judge}' is not served here (served: ${listed}).`
					}
		);
	}
	if (deps.template === null) {
		lines.push({
			what: 'template',
			ok: false,
			text: `No chat template: the model id is not a Hugging Face repo. ${noTemplateFix(APP_CHOICES)}`
		});
	} else if (deps.template) {
		try {
			const t = await deps.template();
			lines.push({ what: 'template', ok: true, text: templateFoundText(t) });
		} catch (err) {
			if (err instanceof AbortError || opts.signal?.aborted) throw err;
			lines.push({
				what: 'template',
				ok: false,
				text: `Chat template: ${errorTextWithFix(err, APP_CHOICES)}`
			});
		}
	}
	return { ok: lines.every((l) => l.ok), lines, served, failure: failureOf(lines, 'bad_model') };
}

/** The failed server, model and judge lines as one error of `code`; null when none failed. */
function failureOf(lines: readonly ServerCheckLine[], code: EngineErrorCode): EngineError | null {
	const failed = lines.filter((l) => !l.ok && l.what !== 'template');
	return failed.length === 0 ? null : new EngineError(code, failed.map((l) => l.text).join(' '));
}

async function unreachableText(
	root: string,
	err: unknown,
	deps: ServerCheckDeps,
	opts: { signal?: AbortSignal }
): Promise<string> {
	if (!(err instanceof EngineError) || err.code !== 'network') {
		// It answered, but not like an OpenAI-compatible server (an HTTP error, a wrong path).
		return `${root} answered, but not with a model list: ${message(err)}`;
	}
	let answered = false;
	try {
		answered = await deps.answersOpaque(`${root}/models`, opts.signal);
	} catch (probeErr) {
		if (probeErr instanceof AbortError || opts.signal?.aborted) throw probeErr;
	}
	return answered
		? `${root} answered, but the browser blocked this page from reading it (CORS): start the server so it allows this page's origin (vLLM --allowed-origins, Ollama OLLAMA_ORIGINS; llama-server allows any origin).`
		: `Nothing answered at ${root}: the server is not running, the host or port is wrong, or the network blocks it.`;
}

function templateFoundText(t: ChatTemplate): string {
	if (t.server) {
		return `The server serves its own chat template (${t.server}): it will be used. A template you choose under "Chat template" wins.`;
	}
	const from = t.provenance
		? ` (shipped with the app: ${t.provenance})`
		: t.repo
			? ` (${t.repo})`
			: '';
	return `Chat template found${from}.`;
}

function message(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}

/** The browser's opaque probe: resolves for any answer, rejects when nothing answered. */
export async function browserAnswersOpaque(url: string, signal?: AbortSignal): Promise<boolean> {
	try {
		await fetch(url, { mode: 'no-cors', signal });
		return true;
	} catch (err) {
		if (signal?.aborted) throw new AbortError();
		void err;
		return false;
	}
}
