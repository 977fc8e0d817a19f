import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	isolationWhy,
	noteLoad,
	reloadToIsolate,
	shouldReloadForIsolation,
	takeIsolationStart,
	type IsolationState
} from '../../../src/lib/app/isolation.ts';

const state = (over: Partial<IsolationState> = {}): IsolationState => ({
	isolated: false,
	off: false,
	serviceWorker: true,
	controlled: true,
	cores: 8,
	...over
});

describe('isolationWhy', () => {
	it('says isolated with the planned threads', () => {
		expect(isolationWhy(state({ isolated: true }))).toEqual({
			plan: { threads: 4, reason: 'isolated' },
			why: 'isolated',
			could: 4
		});
	});

	it('asks for the one reload on a first visit (the page came before the service worker)', () => {
		const told = isolationWhy(state({ controlled: false }));
		expect(told).toMatchObject({ why: 'reload', could: 4, plan: { threads: 1 } });
	});

	it('names the switch when the user turned isolation off, even on a controlled page', () => {
		expect(isolationWhy(state({ off: true })).why).toBe('off');
	});

	it("blames the browser when the service worker's headers did not isolate the page", () => {
		expect(isolationWhy(state()).why).toBe('browser-ignored');
	});

	it('says no service worker can help where none runs (a private window, plain HTTP)', () => {
		expect(isolationWhy(state({ serviceWorker: false, controlled: false })).why).toBe(
			'no-service-worker'
		);
	});

	it('says too few cores when half of them is one thread', () => {
		expect(isolationWhy(state({ isolated: true, cores: 2 })).why).toBe('few-cores');
	});

	it.each([
		['a first visit (no service worker yet)', { controlled: false }],
		['isolation turned off', { off: true }],
		['a browser that ignored the headers', {}]
	])('advises no reload on 2 or 3 cores, where isolation keeps 1 thread: %s', (_why, over) => {
		for (const cores of [1, 2, 3]) {
			const told = isolationWhy(state({ ...over, cores }));
			expect(told).toMatchObject({ why: 'few-cores', could: 1, plan: { threads: 1 } });
		}
		expect(isolationWhy(state({ ...over, cores: 4 })).why).not.toBe('few-cores');
	});
});

describe('shouldReloadForIsolation (asked only as the CPU engine starts)', () => {
	/** A first visit the service worker took over after it loaded, on a device threads help. */
	const facts = {
		isolated: false,
		controlledAtLoad: false,
		controlledNow: true,
		reloadedBefore: false,
		off: false,
		moreThreads: true
	};

	it('reloads a first visit once the worker controls it, so the run starts isolated', () => {
		expect(shouldReloadForIsolation(facts)).toBe(true);
	});

	it.each([
		['the page is isolated already', { isolated: true }],
		[
			'this load came through the worker (a browser that ignores the headers)',
			{ controlledAtLoad: true }
		],
		[
			'no worker controls the page yet (a reload would not be isolated either)',
			{ controlledNow: false }
		],
		['this tab reloaded once already', { reloadedBefore: true }],
		['isolation is turned off', { off: true }],
		['isolation would add no thread on this device', { moreThreads: false }]
	])('never when %s', (_why, over) => {
		expect(shouldReloadForIsolation({ ...facts, ...over })).toBe(false);
	});
});

describe('reloadToIsolate: the one reload, as a CPU run starts', () => {
	/** The browser globals the reload reads and writes, for a first visit on an 8-core device. */
	function firstVisit() {
		const store = new Map<string, string>();
		const sw: { controller: object | null } = { controller: null };
		const reload = vi.fn();
		const replaceState = vi.fn();
		vi.stubGlobal('navigator', { serviceWorker: sw, hardwareConcurrency: 8 });
		vi.stubGlobal('location', { reload });
		vi.stubGlobal('history', { state: null, replaceState });
		vi.stubGlobal('crossOriginIsolated', false);
		vi.stubGlobal('sessionStorage', {
			getItem: (k: string) => store.get(k) ?? null,
			setItem: (k: string, v: string) => void store.set(k, v),
			removeItem: (k: string) => void store.delete(k)
		});
		noteLoad();
		return { sw, reload, replaceState };
	}

	afterEach(() => vi.unstubAllGlobals());

	it('reloads into the stored run, which its view then starts once', async () => {
		const page = firstVisit();
		page.sw.controller = {};
		expect(await reloadToIsolate('r1', '#/run/r1')).toBe(true);
		expect(page.replaceState).toHaveBeenCalledWith(null, '', '#/run/r1');
		expect(page.reload).toHaveBeenCalledOnce();
		expect(takeIsolationStart('r2')).toBe(false);
		expect(takeIsolationStart('r1')).toBe(true);
		expect(takeIsolationStart('r1')).toBe(false);
		// The reloaded page would be isolated; were it not (headers ignored), no second reload.
		expect(await reloadToIsolate('r3', '#/run/r3')).toBe(false);
	});

	it('starts the run in place while no worker controls the page', async () => {
		const page = firstVisit();
		expect(await reloadToIsolate('r1', '#/run/r1')).toBe(false);
		expect(page.reload).not.toHaveBeenCalled();
		expect(takeIsolationStart('r1')).toBe(false);
	});
});
