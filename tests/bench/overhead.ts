/**
 * What the app adds around the model, per record: template rendering, perturbation, scoring, rule
 * classification, judge prompt and parsing, events, and the IndexedDB write (DexieRunStore over
 * fake-indexeddb), over a 10,000-record run on a zero-latency engine.
 *
 * Method: the consumer stamps each `record` event as it arrives; a record's time is the gap since
 * the previous one, minus the scripted engine's own CPU time spent inside that gap (TimedEngine).
 * So the gap holds everything the app does for that record, including its share of the answer
 * generation and the store write, and nothing the fake model does.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { DexieRunStore } from '../../src/lib/db/runs.ts';
import { createDB } from '../../src/lib/db/schema.ts';
import type { RunBundle } from '../../src/lib/probe/exchange.ts';
import { runProbe } from '../../src/lib/probe/pipeline.ts';
import { planConditions } from '../../src/lib/probe/plan.ts';
import type { RunStore } from '../../src/lib/probe/store.ts';
import type { ProbeConfig } from '../../src/lib/probe/types.ts';
import { createProbeScript } from '../helpers/mockScripts.ts';
import { fixtureTemplate } from '../helpers/fixtures.ts';
import { ScriptedEngine } from '../helpers/scriptedEngine.ts';
import { realisticConfig } from './items.ts';
import { median, quantile, round } from './stats.ts';
import { ReferenceSampler } from './reference.ts';
import { TimedEngine } from './timedEngine.ts';

/**
 * 477 items × 21 conditions (3 perturbations × (1 greedy sample at T=0 + 3 at each of T=0.5 and
 * T=1)) = 10,017 records: the smallest run of this shape with at least 10,000.
 */
export const OVERHEAD_ITEMS = 477;

/** A reference burst after every 100th record, 20 units each: 2,000 reference samples per run. */
const REFERENCE_EVERY = 100;
const REFERENCE_UNITS = 5;

export const OVERHEAD_METHOD =
	'Per record: gap between consecutive `record` events at the consumer, minus the scripted ' +
	"engine's own CPU time inside that gap; zero-latency engine, hybrid judging with generator and " +
	'judge co-loaded (judge inline), DexieRunStore over fake-indexeddb, concurrency 1.';

export interface OverheadResult {
	records: number;
	overheadMsPerRecordMedian: number;
	overheadMsPerRecordP95: number;
	overheadMsPerRecordMean: number;
	/** The same per-record figure in process CPU time (all threads, GC included). */
	overheadCpuMsPerRecordMedian: number;
	/** The IndexedDB write alone (await putRecord), median. */
	storeWriteMsMedian: number;
	/** The reference (reference.ts): a bare clone-and-put, median wall ms, sampled during the run. */
	referenceMsMedian: number;
	/** The same in process CPU time. */
	referenceCpuMsMedian: number;
	/** overheadCpuMsPerRecordMedian / referenceCpuMsMedian: the app's cost in bare writes, on any host. */
	overheadCpuPerReference: number;
	/** Fake-model CPU excluded from the figures above, per record. */
	engineMsPerRecordMean: number;
	wallMs: number;
	method: string;
	/** The stored run, for seeding the browser benchmarks with realistic records. */
	bundle: RunBundle;
}

export function overheadConfig(items = OVERHEAD_ITEMS): ProbeConfig {
	return realisticConfig('bench-10k', items);
}

function cpuMs(): number {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}

/** Times each putRecord: awaited wall time of the write, as the pipeline experiences it. */
class TimedStore implements RunStore {
	readonly writesMs: number[] = [];
	readonly #inner: RunStore;
	constructor(inner: RunStore) {
		this.#inner = inner;
	}
	putManifest: RunStore['putManifest'] = (m) => this.#inner.putManifest(m);
	getManifest: RunStore['getManifest'] = (id) => this.#inner.getManifest(id);
	getAnswer: RunStore['getAnswer'] = (run, item) => this.#inner.getAnswer(run, item);
	putAnswer: RunStore['putAnswer'] = (a) => this.#inner.putAnswer(a);
	getRecords: RunStore['getRecords'] = (id) => this.#inner.getRecords(id);
	async putRecord(record: Parameters<RunStore['putRecord']>[0]): Promise<void> {
		const t0 = performance.now();
		await this.#inner.putRecord(record);
		this.writesMs.push(performance.now() - t0);
	}
}

/** @throws Error when the run reports a failure or stores fewer records than planned. */
export async function measureOverhead(
	config: ProbeConfig = overheadConfig()
): Promise<OverheadResult> {
	const db = createDB('bench-overhead', { indexedDB: new IDBFactory(), IDBKeyRange });
	const dexie = new DexieRunStore(db);
	const store = new TimedStore(dexie);
	const engine = new TimedEngine(new ScriptedEngine({ script: createProbeScript() }));
	const gaps: number[] = [];
	/** Process CPU time per record (same subtraction): unlike wall time, a busy machine barely moves it. */
	const cpuGaps: number[] = [];
	let lastCpuMs = cpuMs();
	const reference = new ReferenceSampler();
	await reference.open();
	const t0 = performance.now();
	let last = t0;
	let lastEngineMs = 0;
	let referenceMs = 0;
	try {
		for await (const e of runProbe(config, {
			engine,
			judge: engine,
			store,
			template: fixtureTemplate()
		})) {
			if (e.type === 'error') throw new Error(`overhead run failed: ${e.name}: ${e.message}`);
			// A turn sent to the judge is stored twice (pending, then labelled): one record per label.
			if (e.type !== 'record' || e.record.label === null) continue;
			const now = performance.now();
			const cpu = cpuMs();
			gaps.push(now - last - (engine.engineMs - lastEngineMs));
			cpuGaps.push(cpu - lastCpuMs - (engine.engineMs - lastEngineMs));
			if (gaps.length % REFERENCE_EVERY === 0) {
				const r0 = performance.now();
				await reference.burst(e.record, REFERENCE_UNITS);
				referenceMs += performance.now() - r0;
			}
			// The next gap starts after our own stamping, so the cpuUsage() call is nobody's overhead.
			last = performance.now();
			lastCpuMs = cpuMs();
			lastEngineMs = engine.engineMs;
		}
		const wallMs = performance.now() - t0 - referenceMs;
		const expected = config.items.length * planConditions(config).length;
		if (gaps.length !== expected)
			throw new Error(`expected ${expected} records, got ${gaps.length}`);
		return {
			records: gaps.length,
			overheadMsPerRecordMedian: round(median(gaps)),
			overheadMsPerRecordP95: round(quantile(gaps, 0.95)),
			overheadMsPerRecordMean: round((wallMs - engine.engineMs) / gaps.length),
			overheadCpuMsPerRecordMedian: round(median(cpuGaps)),
			storeWriteMsMedian: round(median(store.writesMs)),
			referenceMsMedian: round(reference.wallMedian),
			referenceCpuMsMedian: round(reference.cpuMedian),
			overheadCpuPerReference: round(median(cpuGaps) / reference.cpuMedian),
			engineMsPerRecordMean: round(engine.engineMs / gaps.length),
			wallMs: Math.round(wallMs),
			method: OVERHEAD_METHOD,
			bundle: await dexie.exportRun(config.run_id)
		};
	} finally {
		reference.close();
		db.close();
	}
}
