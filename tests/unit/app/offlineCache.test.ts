import { describe, expect, it } from 'vitest';
import { urlsToCache } from '../../../src/lib/app/offlineCache.ts';

const ORIGIN = 'https://user.github.io';

describe('what a first visit hands its service worker to cache', () => {
	it('keeps the same-origin chunks, styles and engine files a runtime cache keeps, once each', () => {
		const loaded = [
			`${ORIGIN}/user-turn-probe/assets/SetupView-Ab1_x.js`,
			`${ORIGIN}/user-turn-probe/assets/SetupView-Cd2.css`,
			`${ORIGIN}/user-turn-probe/assets/cpu.worker-Ef3.js`,
			`${ORIGIN}/user-turn-probe/assets/wllama-Gh4.wasm`,
			`${ORIGIN}/user-turn-probe/assets/SetupView-Ab1_x.js`
		];
		expect(urlsToCache(loaded, ORIGIN)).toEqual(loaded.slice(0, 4));
	});

	it('leaves out other origins, data the app fetched, and names that are no URL', () => {
		const loaded = [
			'https://huggingface.co/assets/model-x.js',
			`${ORIGIN}/user-turn-probe/static/paper-figures.json`,
			`${ORIGIN}/user-turn-probe/index.html`,
			'not a url'
		];
		expect(urlsToCache(loaded, ORIGIN)).toEqual([]);
	});
});
