/**
 * The engine registry: every stored engine value (a kind, or the runtime name manifests, benchmarks
 * and older settings hold) reads as one provider, and each provider's runtime is the name its
 * engine writes into a run's manifest.
 */
import { describe, expect, it } from 'vitest';
import { CpuEngine } from '../../../src/lib/engines/cpu/client.ts';
import {
	deviceDefault,
	ENGINE_LIST,
	ENGINES,
	engineKindOf
} from '../../../src/lib/engines/registry.ts';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { WebLLMEngine } from '../../../src/lib/engines/webgpu/client.ts';

const silentWorker = {
	postMessage: () => {},
	terminate: () => {},
	addEventListener: () => {},
	removeEventListener: () => {}
};

describe('engine registry', () => {
	it.each([
		['webgpu', 'webgpu'],
		['cpu', 'cpu'],
		['server', 'server'],
		['webllm', 'webgpu'],
		['wllama', 'cpu'],
		['openai', 'server'],
		['scripted', undefined],
		['', undefined],
		[undefined, undefined],
		[42, undefined]
	])('reads the stored engine %j as %s', (stored, kind) => {
		expect(engineKindOf(stored)).toBe(kind);
	});

	it("names each provider's runtime as its engine names itself in manifests", () => {
		expect(new WebLLMEngine(silentWorker).name).toBe(ENGINES.webgpu.runtime);
		expect(new CpuEngine(silentWorker).name).toBe(ENGINES.cpu.runtime);
		expect(new OpenAIEngine({ baseUrl: 'http://127.0.0.1:1/v1' }).name).toBe(
			ENGINES.server.runtime
		);
	});

	it('has one provider per kind and runtime, offered WebGPU first', () => {
		expect(ENGINE_LIST[0].kind).toBe('webgpu');
		// No name of one provider (kind or runtime) is a name of another.
		for (const p of ENGINE_LIST) {
			expect(engineKindOf(p.kind)).toBe(p.kind);
			expect(engineKindOf(p.runtime)).toBe(p.kind);
		}
		for (const [kind, provider] of Object.entries(ENGINES)) expect(provider.kind).toBe(kind);
	});

	it('defaults a device to WebGPU where it runs models and to the CPU engine elsewhere', () => {
		expect(deviceDefault({ canRunModels: true })).toBe('webgpu');
		expect(deviceDefault({ canRunModels: false })).toBe('cpu');
	});

	it('says why a device cannot run an engine, only once the GPU is known', () => {
		const gpu = ENGINES.webgpu;
		expect(gpu.unavailable({ canRunModels: false, shaderF16: false, checked: false })).toBeNull();
		expect(gpu.unavailable({ canRunModels: false, shaderF16: false })).toMatchObject({
			code: 'webgpu_unavailable'
		});
		expect(ENGINES.cpu.unavailable({ canRunModels: false, shaderF16: false })).toBeNull();
	});
});
