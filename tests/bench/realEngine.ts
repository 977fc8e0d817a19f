/**
 * The probe against real inference: the tiny real model (tests/helpers/tinyModel) in real llama.cpp
 * (node-llama-cpp, CPU, 1 thread) behind the test OpenAI-compatible server, driven by the OpenAI
 * engine as the CLI drives a server. Measures records per minute and the app's share of the wall
 * time: everything outside the awaited engine calls (templates, perturbations, rules, judge prompt
 * and parsing, events, the IndexedDB write) over the whole run, at concurrency 1 so engine calls
 * never overlap. The engine's time includes HTTP, SSE parsing and the server, as a user's would.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { DexieRunStore } from '../../src/lib/db/runs.ts';
import { createDB } from '../../src/lib/db/schema.ts';
import { OpenAIEngine } from '../../src/lib/engines/server/client.ts';
import type {
	CompletionRequest,
	CompletionResult,
	Engine,
	EngineCapabilities,
	JsonChatRequest,
	LoadProgress
} from '../../src/lib/probe/engine.ts';
import { runProbe } from '../../src/lib/probe/pipeline.ts';
import { startLlamaCppServer } from '../helpers/llamaCppServer.ts';
import { prepareRun } from '../../src/lib/probe/prepare.ts';
import { runValues } from '../helpers/factories.ts';
import { fixtureTemplate } from '../helpers/fixtures.ts';
import { buildTinyModel } from '../helpers/tinyModel/index.ts';
import { gsm8kItems } from './items.ts';
import { round } from './stats.ts';

export const REAL_ENGINE_METHOD =
	'Tiny qwen2 GGUF (tests/helpers/tinyModel, seed 1) in node-llama-cpp (CPU, 1 thread) behind the ' +
	'test OpenAI server; OpenAIEngine; 4 GSM8K fixture items × T [0, 1] × [none, truncate] × 1 sample, ' +
	'LLM judge on every record (grammar-constrained JSON), DexieRunStore over fake-indexeddb, ' +
	'concurrency 1. App share = 1 − (awaited engine time / wall time of the run, model load excluded).';

export interface RealEngineResult {
	records: number;
	recordsPerMinute: number;
	/** Share of the run's wall time spent outside engine calls. */
	appShare: number;
	appMsPerRecord: number;
	engineMsPerRecord: number;
	engineCalls: number;
	wallMs: number;
	method: string;
}

/** Adds up the awaited time of each call; valid when calls never overlap (concurrency 1). */
class AwaitedTimeEngine implements Engine {
	readonly name: string;
	engineMs = 0;
	calls = 0;
	readonly #inner: Engine;
	constructor(inner: Engine) {
		this.#inner = inner;
		this.name = inner.name;
	}
	capabilities(): EngineCapabilities {
		return this.#inner.capabilities();
	}
	load(models: string[], opts?: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void }) {
		return this.#inner.load(models, opts);
	}
	unload(): Promise<void> {
		return this.#inner.unload();
	}
	async #timed<T>(call: () => Promise<T>): Promise<T> {
		const t0 = performance.now();
		try {
			return await call();
		} finally {
			this.engineMs += performance.now() - t0;
			this.calls++;
		}
	}
	complete(req: CompletionRequest): Promise<CompletionResult> {
		return this.#timed(() => this.#inner.complete(req));
	}
	chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		return this.#timed(() => this.#inner.chatJson(req));
	}
}

/** @throws Error when the run reports an error or stores fewer records than planned. */
export async function measureRealEngine(): Promise<RealEngineResult> {
	const model = await buildTinyModel({ seed: 1 });
	const server = await startLlamaCppServer({ modelPath: model.path, alias: 'tiny' });
	const db = createDB('bench-real-engine', { indexedDB: new IDBFactory(), IDBKeyRange });
	try {
		const engine = new AwaitedTimeEngine(new OpenAIEngine({ baseUrl: server.url }));
		const { config, manifestExtras } = await prepareRun(
			runValues({
				run_id: 'bench-real',
				dataset: 'gsm8k',
				generator: { id: 'tiny', template_repo: 'Qwen/Qwen2.5-0.5B-Instruct' },
				judge: { id: 'tiny' },
				judge_mode: 'llm',
				items: gsm8kItems(4),
				temperatures: [0, 1],
				perturbations: ['none', 'truncate'],
				samples: 1,
				max_tokens: 128,
				answer_max_tokens: 256,
				template_sha256: fixtureTemplate().sha256
			})
		);
		await engine.load(['tiny']);
		let records = 0;
		const t0 = performance.now();
		for await (const e of runProbe(config, {
			engine,
			judge: engine,
			store: new DexieRunStore(db),
			template: fixtureTemplate(),
			concurrency: 1,
			manifestExtras
		})) {
			if (e.type === 'error') throw new Error(`real-engine run failed: ${e.name}: ${e.message}`);
			// A judged record is stored twice (pending, then labelled): count it once.
			if (e.type === 'record' && e.record.label !== null) records++;
		}
		const wallMs = performance.now() - t0;
		if (records !== 16) throw new Error(`expected 16 records, got ${records}`);
		return {
			records,
			recordsPerMinute: round((records * 60_000) / wallMs),
			appShare: round(1 - engine.engineMs / wallMs),
			appMsPerRecord: round((wallMs - engine.engineMs) / records),
			engineMsPerRecord: round(engine.engineMs / records),
			engineCalls: engine.calls,
			wallMs: Math.round(wallMs),
			method: REAL_ENGINE_METHOD
		};
	} finally {
		db.close();
		await server.close();
	}
}
