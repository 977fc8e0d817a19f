import { describe, expect, it } from 'vitest';
import {
	isolationWhy,
	shouldReloadForIsolation,
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

describe('shouldReloadForIsolation', () => {
	const facts = { isolated: false, touched: false, reloadedBefore: false, off: false, hash: '' };

	it.each(['', '#/', '#/setup'])('reloads an untouched first visit of "%s" once', (hash) => {
		expect(shouldReloadForIsolation({ ...facts, hash })).toBe(true);
	});

	it.each([
		['the page is isolated already', { isolated: true }],
		['the visitor clicked or typed', { touched: true }],
		[
			'this tab reloaded once already (a browser that ignores the headers)',
			{ reloadedBefore: true }
		],
		['isolation is turned off', { off: true }],
		['a share link is opening', { hash: '#/open?url=https%3A%2F%2Fx.test%2Frun.json' }],
		['a run is showing', { hash: '#/run/r1' }],
		['home carries parameters (a class link)', { hash: '#/?examples=1' }]
	])('never when %s', (_why, over) => {
		expect(shouldReloadForIsolation({ ...facts, ...over })).toBe(false);
	});
});
