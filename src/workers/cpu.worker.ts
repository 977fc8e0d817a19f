/**
 * The CPU engine worker: the one place wllama (llama.cpp in WebAssembly) loads. It only wires the
 * wllama runtime to our protocol handler; all logic lives in src/lib/engines/cpu/worker/.
 */
import { createCpuHandler } from '../lib/engines/cpu/worker/handler.ts';
import { createWllamaRuntime } from '../lib/engines/cpu/worker/runtime.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

const handle = createCpuHandler(createWllamaRuntime(), (msg) => scope.postMessage(msg));

scope.onmessage = (event) => handle(event.data);
