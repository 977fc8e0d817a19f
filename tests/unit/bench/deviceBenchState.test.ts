import { DexieBenchmarkStore } from '../../../src/lib/db/benchmarks.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProbeDB } from '../../../src/lib/db/schema.ts';
import type { GpuReport } from '../../../src/lib/engines/webgpu/gpu.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { TemplateError } from '../../../src/lib/probe/template.ts';
import {
	DeviceBench,
	describeDevice,
	shareJson
} from '../../../src/lib/state/deviceBench.svelte.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';
import { testDB } from '../db/helpers.ts';

const GPU: GpuReport = {
	webgpu: true,
	adapter: {
		vendor: 'acme',
		architecture: 'rdna-9',
		device: '',
		description: 'Acme Laptop GPU',
		fallback: false
	},
	shader_f16: true,
	limits: {}
};

let opened: ProbeDB[] = [];
afterEach(() => {
	opened.forEach((db) => db.close());
	opened = [];
});

function setup(engine = new ScriptedEngine({ tokenDelayMs: 1 })) {
	const t = testDB(`bench-${Math.random()}`);
	opened.push(t.db);
	const bench = new DeviceBench({ store: new DexieBenchmarkStore(t.db), gpu: async () => GPU });
	const request = { engine, model: 'gen-model', template: fixtureTemplate() };
	return { bench, db: t.db, reopen: t.reopen, request, engine };
}

describe('DeviceBench state', () => {
	it('stores a finished benchmark with the adapter and lists it after a reload', async () => {
		const { bench, request, reopen } = setup();
		expect(bench.status).toBe('idle');
		await bench.run(request);
		expect(bench.status).toBe('done');
		expect(bench.error).toBeNull();
		expect(bench.result).toMatchObject({
			model_id: 'gen-model',
			engine: 'scripted',
			device: { vendor: 'acme', architecture: 'rdna-9', shader_f16: 'true', fallback: 'false' }
		});
		expect(bench.result?.results.decode_tps).toBeGreaterThan(0);
		expect(bench.result?.sources?.decode_tps).toBe('measured');
		expect(bench.history).toHaveLength(1);

		const db2 = reopen();
		opened.push(db2);
		const after = new DeviceBench({ store: new DexieBenchmarkStore(db2), gpu: async () => GPU });
		await after.loadHistory();
		expect(after.history).toHaveLength(1);
		expect(after.history[0]).toMatchObject({
			id: bench.result?.id,
			model_id: 'gen-model',
			results: bench.result?.results
		});
	});

	it("stores the engine's own report (the CPU engine's threads) beside the device", async () => {
		const { bench, request } = setup();
		await bench.run({ ...request, facts: async () => ({ cpu_threads: '4' }) });
		expect(bench.result?.device).toMatchObject({ vendor: 'acme', cpu_threads: '4' });
		expect(bench.history[0].device?.cpu_threads).toBe('4');
	});

	it("still stores the benchmark when the engine's report fails", async () => {
		const { bench, request } = setup();
		await bench.run({ ...request, facts: () => Promise.reject(new Error('worker gone')) });
		expect(bench.status).toBe('done');
		expect(bench.result?.device?.cpu_threads).toBeUndefined();
	});

	it('lists the newest benchmark first', async () => {
		const { bench, request } = setup();
		await bench.run(request);
		await bench.run({ ...request, model: 'gen-model' });
		const [newest, older] = bench.history;
		expect(newest.created_at >= older.created_at).toBe(true);
		expect(newest.id).toBe(bench.result?.id);
	});

	it('keeps the failure and its recovery advice, and stores nothing', async () => {
		const engine = new ScriptedEngine({
			failOn: { call: 1, error: new EngineError('device_lost', 'The GPU was lost.', 'Reload.') }
		});
		const { bench, request, db } = setup(engine);
		await bench.run(request);
		expect(bench.status).toBe('failed');
		expect(bench.error).toEqual({
			name: 'EngineError',
			message: 'The GPU was lost.',
			recovery: 'Reload.'
		});
		expect(await db.benchmarks.count()).toBe(0);
	});

	it('prepares a lazy request only when run, and reports a preparation failure', async () => {
		const { bench, request } = setup();
		let prepared = 0;
		await bench.run(async () => {
			prepared++;
			return request;
		});
		expect(prepared).toBe(1);
		expect(bench.status).toBe('done');

		await bench.run(async () => {
			throw new TemplateError('Qwen/Qwen3-0.6B: no chat template found');
		});
		expect(bench.status).toBe('failed');
		expect(bench.error).toEqual({
			name: 'TemplateError',
			message: 'Qwen/Qwen3-0.6B: no chat template found'
		});
	});

	it('ends as cancelled, not failed, when cancelled while running', async () => {
		const { bench, request, db } = setup(new ScriptedEngine({ tokenDelayMs: 5 }));
		const running = bench.run(request);
		expect(bench.status).toBe('running');
		setTimeout(() => bench.cancel(), 20);
		await running;
		expect(bench.status).toBe('cancelled');
		expect(bench.error).toBeNull();
		expect(await db.benchmarks.count()).toBe(0);
	});
});

describe('sharing', () => {
	it('describes the adapter as flat strings, leaving out empty fields', () => {
		expect(describeDevice(GPU)).toEqual({
			webgpu: 'true',
			shader_f16: 'true',
			vendor: 'acme',
			architecture: 'rdna-9',
			description: 'Acme Laptop GPU',
			fallback: 'false'
		});
		expect(describeDevice({ webgpu: false, shader_f16: false, limits: {} })).toEqual({
			webgpu: 'false',
			shader_f16: 'false'
		});
	});

	it('copies JSON that reads back to the same figures, without the local id', () => {
		const entry = {
			id: 7,
			created_at: '2026-11-22T00:00:00.000Z',
			model_id: 'm',
			engine: 'webllm',
			device: { vendor: 'acme' },
			results: { decode_tps: 31.5, records_per_minute: 4.2 },
			sources: { decode_tps: 'engine' as const, records_per_minute: 'measured' as const }
		};
		const parsed = JSON.parse(shareJson(entry));
		expect(parsed).not.toHaveProperty('id');
		expect(parsed).toMatchObject({
			kind: 'user-turn-probe/device-benchmark',
			model_id: 'm',
			results: entry.results,
			sources: entry.sources
		});
	});
});
