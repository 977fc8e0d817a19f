import { describe, expect, it } from 'vitest';
import { cpuThreads } from '../../../src/lib/engines/cpu/threads.ts';
import { fakeCpuEngine } from '../../helpers/fakeWllama.ts';

const URL_A = 'http://127.0.0.1:9/a/model-a.gguf';

describe('cpuThreads', () => {
	it.each([
		{ isolated: false, cores: 16, threads: 1, reason: 'not-isolated' },
		{ isolated: true, cores: 1, threads: 1, reason: 'few-cores' },
		{ isolated: true, cores: 2, threads: 1, reason: 'few-cores' },
		{ isolated: true, cores: 3, threads: 1, reason: 'few-cores' },
		{ isolated: true, cores: 4, threads: 2, reason: 'isolated' },
		{ isolated: true, cores: 8, threads: 4, reason: 'isolated' },
		{ isolated: true, cores: 12, threads: 6, reason: 'isolated' },
		{ isolated: true, cores: 0, threads: 1, reason: 'few-cores' },
		{ isolated: true, cores: Number.NaN, threads: 1, reason: 'few-cores' }
	])(
		'isolated=$isolated on $cores cores → $threads ($reason)',
		({ isolated, cores, threads, reason }) => {
			expect(cpuThreads({ isolated, cores })).toEqual({ threads, reason });
		}
	);
});

describe('CPU engine threads', () => {
	it("opens models with the worker's own plan when the page asks for no count", async () => {
		const { engine, fake, close } = fakeCpuEngine({}, () => 3);
		await engine.load([URL_A]);
		expect(fake.threads).toEqual([3]);
		expect((await engine.stats()).threads).toBe(3);
		close();
	});

	it("uses the count the page asks for over the worker's plan, and keeps a loaded model", async () => {
		const { engine, fake, received, close } = fakeCpuEngine({ n_threads: 1 }, () => 4);
		await engine.load([URL_A]);
		expect(received[0]).toMatchObject({ kind: 'load', n_threads: 1 });
		expect(fake.threads).toEqual([1]);
		await engine.load([URL_A]);
		expect(fake.opened).toEqual([URL_A]);
		close();
	});

	it('is single-threaded in Node, where nothing is cross-origin isolated', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		expect(fake.threads).toEqual([1]);
		close();
	});
});
