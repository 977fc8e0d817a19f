/**
 * The engine worker: the one place web-llm's runtime loads. It only wires MLCEngine and the cache
 * helpers to our protocol handler; all logic lives in src/lib/engines/webgpu/worker/.
 */
import {
	MLCEngine,
	deleteChatConfigInCache,
	deleteModelAllInfoInCache,
	deleteModelWasmInCache,
	hasModelInCache,
	prebuiltAppConfig
} from '@mlc-ai/web-llm';
import { cacheSizes } from '../lib/engines/webgpu/worker/cacheSizes.ts';
import { createHandler } from '../lib/engines/webgpu/worker/handler.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

// One MLCEngine per resident model (worker/pool.ts says why): a kept judge is never reloaded.
const handle = createHandler(
	() => new MLCEngine(),
	(msg) => scope.postMessage(msg),
	{
		has: hasModelInCache,
		delete: deleteModelAllInfoInCache,
		sizes: (model, appConfig) =>
			cacheSizes(model, appConfig ?? prebuiltAppConfig, { caches, storage: navigator.storage }),
		forgetConfig: async (model, appConfig) => {
			await deleteChatConfigInCache(model, appConfig);
			await deleteModelWasmInCache(model, appConfig);
		},
		caches
	},
	{ baseAppConfig: prebuiltAppConfig, fetch: (url, init) => fetch(url, init) }
);

scope.onmessage = (event) => handle(event.data);
