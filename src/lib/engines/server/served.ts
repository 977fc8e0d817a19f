/**
 * Whether a server lists the models a run asks for: the one rule the CLI's start
 * (cli/startPorts.ts), an engine's load (client.ts) and, for its error's kind, the app's start
 * (app/serverCheck.ts) follow.
 * A model that is not listed is an EngineError('bad_model') naming what is served, whichever shell
 * meets it, so each says and classifies it the same way.
 */
import { EngineError } from '../../probe/engine.ts';

/** What to do about a model the server does not list. */
const NOT_SERVED_RECOVERY =
	'Pick one of the served model ids, or restart the server with the model you want.';

/** @throws EngineError('bad_model') naming the `models` that `served` lacks, and what it lists. */
export function requireServed(
	served: readonly string[],
	models: readonly string[],
	baseUrl: string
): void {
	const missing = [...new Set(models)].filter((m) => !served.includes(m));
	if (missing.length === 0) return;
	const names = missing.map((m) => `'${m}'`).join(', ');
	const verb = missing.length === 1 ? 'Model' : 'Models';
	const list = served.length > 0 ? served.join(', ') : '(none)';
	throw new EngineError(
		'bad_model',
		`${verb} ${names} ${missing.length === 1 ? 'is' : 'are'} not served at ${baseUrl}. Served: ${list}`,
		NOT_SERVED_RECOVERY
	);
}
