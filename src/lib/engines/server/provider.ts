/** Any OpenAI-compatible server (vLLM, SGLang, llama-server, Ollama…), over HTTP. */
import { EngineError } from '../../probe/engine.ts';
import type { Connection, EngineHosts, EngineProvider } from '../provider.ts';
import type { OpenAIEngine } from './client.ts';
import { ServerModels } from './settings.ts';

/** @throws (rejects) EngineError('network') when no server URL was given, or it is not http(s). */
async function serverOf(hosts: EngineHosts, conn: Connection): Promise<OpenAIEngine> {
	const url = conn.base_url?.trim();
	if (!url) throw new EngineError('network', 'No server URL was given.', 'Enter the server URL.');
	return hosts.serverEngine(url, conn.api_key || undefined);
}

export const server: EngineProvider<'server', ServerModels> = {
	kind: 'server',
	label: 'OpenAI-compatible server',
	description: 'Any server that speaks the OpenAI API: vLLM, SGLang, llama-server, Ollama…',
	runtime: 'openai',
	onDevice: false,
	usesGpu: false,
	// A server batching requests.
	guessTps: 120,
	unavailable: () => null,
	models: (persist) => new ServerModels(persist),
	open: async (hosts, conn) => {
		const engine = await serverOf(hosts, conn);
		return {
			engine,
			judge: engine,
			listModels: (signal) => engine.listModels(signal),
			// vLLM's root and llama-server's meta identify the weights behind a served id.
			fingerprints: async (ids) => {
				const served = await engine.modelFingerprints();
				return { generator: served.get(ids.generator), judge: served.get(ids.judge) };
			}
		};
	},
	askContextWindow: async (hosts, conn, model, signal) =>
		(await serverOf(hosts, conn)).contextWindow(model, signal)
};
