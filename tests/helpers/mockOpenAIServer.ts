/**
 * Run the mock OpenAI-compatible server by hand or from the e2e runner:
 *
 *   npx tsx tests/helpers/mockOpenAIServer.ts --port 8765 --script probe --models a,b --token-delay-ms 5
 *
 * Prints its URL on the first line of stdout (what e2e scripts wait for) and runs until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_MOCK_MODELS, startMockOpenAI } from './mockOpenAI.ts';
import { namedScript, SCRIPT_NAMES, type ScriptName } from './mockScripts.ts';

const USAGE = `Usage: mockOpenAIServer.ts [--port N] [--script ${SCRIPT_NAMES.join('|')}] [--models a,b] [--token-delay-ms N] [--api-key KEY]`;

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '8765' },
			script: { type: 'string', default: 'default' },
			models: { type: 'string', default: DEFAULT_MOCK_MODELS.join(',') },
			'token-delay-ms': { type: 'string', default: '0' },
			'api-key': { type: 'string' },
			help: { type: 'boolean', default: false }
		}
	});
	if (values.help) {
		console.log(USAGE);
		return;
	}
	const script = values.script as ScriptName;
	if (!SCRIPT_NAMES.includes(script))
		throw new Error(`Unknown --script '${values.script}'.\n${USAGE}`);
	const port = Number(values.port);
	if (!Number.isInteger(port) || port < 0)
		throw new Error(`Bad --port '${values.port}'.\n${USAGE}`);

	const server = await startMockOpenAI({
		port,
		script: namedScript(script),
		models: values.models
			.split(',')
			.map((m) => m.trim())
			.filter(Boolean),
		apiKey: values['api-key']
	});
	server.tokenDelayMs = Number(values['token-delay-ms']) || 0;
	console.log(server.url);
	const stop = () => void server.close().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
	console.error(err instanceof Error ? err.message : err);
	process.exit(1);
});
