/**
 * A run's model download is timed from the load progress the engine reports, and handed on once
 * the model has loaded, so the next estimate can add a download's time; a cached load (no download
 * phase) is not a download.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoadProgress } from '../../../src/lib/probe/engine.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import type { DownloadSample } from '../../../src/lib/setup/downloadSpeed.ts';
import { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { oneTurnConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

const MB = 1024 * 1024;
/** The time the engine's reports arrive at; real time once loaded (the run's own timers). */
let clock: number | null = null;
const realNow = performance.now.bind(performance);

/** Loads as a first visit does: its files arrive over `seconds`, then it loads from the cache. */
class DownloadingEngine extends ScriptedEngine {
	constructor(private readonly reports: (model: string) => [number, LoadProgress][]) {
		super();
	}
	override async load(
		models: string[],
		opts: { onProgress?: (p: LoadProgress) => void } = {}
	): Promise<void> {
		for (const model of models) {
			for (const [at, p] of this.reports(model)) {
				clock = at;
				opts.onProgress?.(p);
			}
		}
		clock = null;
		return super.load(models);
	}
}

const config = oneTurnConfig();

async function runWith(engine: ScriptedEngine): Promise<DownloadSample[]> {
	const samples: DownloadSample[] = [];
	const run = new RunController({
		schedule: (fn) => void fn(),
		onDownload: (s) => samples.push(s)
	});
	const setup = { engine, judge: engine, template: fixtureTemplate() };
	await run.start({ config, store: new MemoryStore(), prepare: async () => setup });
	expect(run.phase).toBe('done');
	return samples;
}

afterEach(() => vi.restoreAllMocks());

describe('RunController: timing a download', () => {
	it('hands on the bytes and time of the download phase once the model is loaded', async () => {
		vi.spyOn(performance, 'now').mockImplementation(() => clock ?? realNow());
		const engine = new DownloadingEngine((model) => [
			[1_000, { model, fraction: 0.1, phase: 'downloading', loaded_bytes: 10 * MB }],
			[9_000, { model, fraction: 0.7, phase: 'downloading', loaded_bytes: 410 * MB }],
			[9_500, { model, fraction: 0.9, phase: 'loading' }]
		]);
		expect(await runWith(engine)).toEqual([
			{ model: config.generator.id, bytes: 400 * MB, ms: 8_000 }
		]);
	});

	it('hands on nothing for a model loaded from the cache', async () => {
		vi.spyOn(performance, 'now').mockImplementation(() => clock ?? realNow());
		const engine = new DownloadingEngine((model) => [
			[1_000, { model, fraction: 0.2, phase: 'loading', loaded_bytes: 100 * MB }],
			[9_000, { model, fraction: 0.9, phase: 'loading', loaded_bytes: 400 * MB }]
		]);
		expect(await runWith(engine)).toEqual([]);
	});
});
