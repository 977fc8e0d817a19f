/**
 * The download's time in an estimate: measured from this browser's last download (the meter reads
 * the engines' load progress; DownloadSizes keeps the newest speed), added for uncached models only,
 * and otherwise left out with the size said, never guessed from a bandwidth nobody measured.
 */
import { describe, expect, it } from 'vitest';
import {
	DownloadMeter,
	MIN_MEASURED_BYTES,
	MIN_MEASURED_MS
} from '../../../src/lib/setup/downloadSpeed.ts';
import { estimateRun, type EstimateInput } from '../../../src/lib/setup/estimate.ts';
import { downloadTimeText } from '../../../src/lib/setup/estimateText.ts';
import { estimateSweep } from '../../../src/lib/setup/sweepPlan.ts';
import { DownloadSizes } from '../../../src/lib/state/downloadSizes.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

const MB = 1024 * 1024;
const BASE: Omit<EstimateInput, 'models' | 'measured'> = {
	items: 10,
	conditions: 2,
	judge_mode: 'rules',
	guess_tps: 20,
	answer_max_tokens: 256,
	max_tokens: 64
};
const SPEED = { MB_per_s: 10, at: '2026-11-20T09:00:00.000Z' };

describe('DownloadMeter', () => {
	const downloading = (model: string, mb: number) => ({
		model,
		fraction: 0.5,
		phase: 'downloading',
		loaded_bytes: mb * MB
	});

	it('measures the bytes and time of the download phase, ended by the next phase', () => {
		const meter = new DownloadMeter();
		expect(meter.note(downloading('m', 0), 1_000)).toBeNull();
		expect(meter.note(downloading('m', 100), 6_000)).toBeNull();
		expect(meter.note(downloading('m', 250), 11_000)).toBeNull();
		expect(meter.note({ model: 'm', fraction: 0.85, phase: 'loading' }, 12_000)).toEqual({
			model: 'm',
			bytes: 250 * MB,
			ms: 10_000
		});
		// One sample per download: later reports of the same load add nothing.
		expect(meter.note({ model: 'm', fraction: 1, phase: 'ready' }, 13_000)).toBeNull();
	});

	it('ends a download when the model reports loaded, and keeps models apart', () => {
		const meter = new DownloadMeter();
		meter.note(downloading('a', 0), 0);
		meter.note(downloading('b', 0), 0);
		meter.note(downloading('a', 40), 4_000);
		meter.note(downloading('b', 80), 4_000);
		expect(meter.end('a')).toEqual({ model: 'a', bytes: 40 * MB, ms: 4_000 });
		expect(meter.end('b')).toEqual({ model: 'b', bytes: 80 * MB, ms: 4_000 });
		expect(meter.end('never-seen')).toBeNull();
	});

	it('measures nothing from a cached model, a tiny file or a burst too short to time', () => {
		const meter = new DownloadMeter();
		// A cached web-llm model skips the fetch phase: loading reports only.
		meter.note({ model: 'c', fraction: 0.5, phase: 'loading', loaded_bytes: 900 * MB }, 0);
		expect(meter.end('c')).toBeNull();
		meter.note(downloading('small', 0), 0);
		meter.note(downloading('small', MIN_MEASURED_BYTES / MB - 1), 10_000);
		expect(meter.end('small')).toBeNull();
		meter.note(downloading('fast', 0), 0);
		meter.note(downloading('fast', 500), MIN_MEASURED_MS - 1);
		expect(meter.end('fast')).toBeNull();
	});

	it('starts over when the bytes go back (a stopped run downloading again), not counting the pause', () => {
		const meter = new DownloadMeter();
		meter.note(downloading('m', 0), 0);
		meter.note(downloading('m', 100), 5_000);
		meter.note(downloading('m', 0), 600_000);
		meter.note(downloading('m', 100), 605_000);
		expect(meter.end('m')).toEqual({ model: 'm', bytes: 100 * MB, ms: 5_000 });
	});
});

describe('DownloadSizes: the last download speed', () => {
	it('is unknown until a download is measured, then the newest one survives a reload', () => {
		const storage = memoryStorage();
		const sizes = new DownloadSizes(storage);
		expect(sizes.speed).toBeUndefined();
		sizes.recordSpeed({ model: 'a', bytes: 100 * MB, ms: 20_000 }, '2026-11-01T00:00:00.000Z');
		sizes.recordSpeed({ model: 'b', bytes: 300 * MB, ms: 10_000 }, '2026-11-02T00:00:00.000Z');
		expect(new DownloadSizes(storage).speed).toEqual({
			MB_per_s: 30,
			at: '2026-11-02T00:00:00.000Z'
		});
	});

	it('ignores an empty sample and a hand-edited stored value that is no speed', () => {
		const sizes = new DownloadSizes(
			memoryStorage({ 'utp:download-speed': JSON.stringify({ MB_per_s: -3, at: 'x' }) })
		);
		expect(sizes.speed).toBeUndefined();
		sizes.recordSpeed({ model: 'a', bytes: 0, ms: 1_000 });
		expect(sizes.speed).toBeUndefined();
	});
});

describe('estimateRun: the download time', () => {
	it('adds the uncached download at the last measured speed and says where it came from', () => {
		const e = estimateRun({
			...BASE,
			models: [
				{ id: 'gen', download_MB: 600, cached: false },
				{ id: 'judge', download_MB: 900, cached: true }
			],
			download_speed: SPEED
		});
		expect(e.download_MB).toBe(600);
		expect(e.download_seconds).toBe(60);
		expect(downloadTimeText(e)).toBe(
			'Downloading adds about 1 min, at 10 MB/s, the speed of the last download here (2026-11-20).'
		);
	});

	it('without a measured speed: no time is made up, the size is said and left out of the time', () => {
		const models = [{ id: 'gen', download_MB: 1_200, cached: false }];
		const without = estimateRun({ ...BASE, models });
		const withSpeed = estimateRun({ ...BASE, models, download_speed: SPEED });
		expect(without.download_seconds).toBeNull();
		expect(without.seconds).toEqual(withSpeed.seconds);
		expect(downloadTimeText(without)).toBe(
			'The time excludes the 1,200 MB download: no download has been timed in this browser yet.'
		);
	});

	it('cached models add nothing, with or without a measured speed', () => {
		const models = [{ id: 'gen', download_MB: 1_200, cached: true }];
		for (const download_speed of [undefined, SPEED]) {
			const e = estimateRun({ ...BASE, models, download_speed });
			expect(e.download_seconds).toBe(0);
			expect(downloadTimeText(e)).toBe('');
		}
	});

	it('says that models of unknown size are not in the download time', () => {
		const e = estimateRun({
			...BASE,
			models: [
				{ id: 'a', download_MB: 300, cached: false },
				{ id: 'b', download_MB: null, cached: false }
			],
			download_speed: SPEED
		});
		expect(e.download_seconds).toBe(30);
		expect(downloadTimeText(e)).toContain('plus the models whose size is not listed');
		const onlyUnknown = estimateRun({
			...BASE,
			models: [{ id: 'b', download_MB: null }],
			download_speed: SPEED
		});
		expect(downloadTimeText(onlyUnknown)).toMatch(/^The time excludes the models whose size/);
	});
});

describe('estimateSweep: the download time', () => {
	it('times each uncached model once, the judge too, at the measured speed', () => {
		const cost = estimateSweep(
			{ ...BASE, judge_mode: 'llm', download_speed: SPEED },
			[
				{ id: 'a', download_MB: 300, cached: true },
				{ id: 'b', download_MB: 500, cached: false }
			],
			{ id: 'j', download_MB: 400, cached: false }
		);
		expect(cost.download_MB).toBe(900);
		expect(cost.download_seconds).toBe(90);
		// Each run's own estimate counts the judge again; the sweep's total does not.
		expect(cost.runs.map((r) => r.estimate.download_seconds)).toEqual([40, 90]);
	});

	it('leaves the time out when nothing was measured, and adds none when all is cached', () => {
		const gens = [{ id: 'a', download_MB: 300, cached: false }];
		expect(estimateSweep(BASE, gens, null).download_seconds).toBeNull();
		const cached = [{ id: 'a', download_MB: 300, cached: true }];
		expect(estimateSweep(BASE, cached, null).download_seconds).toBe(0);
	});
});
