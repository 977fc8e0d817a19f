import { describe, expect, it } from 'vitest';
import { downloadProgress } from '../../../src/cli/downloadProgress.ts';

describe('CLI download progress', () => {
	it('says each file at its start, every 5 s while it trickles, and at its end; never for the cache', () => {
		const lines: string[] = [];
		let t = 0;
		const report = downloadProgress({ write: (s: string) => lines.push(s) }, () => t);
		const url = 'https://host.test/punkt_tab.zip';
		const at = (ms: number, loaded: number) => {
			t = ms;
			report({ url, loaded, total: 4 * 1024 ** 2, fromCache: false });
		};
		at(0, 1);
		at(1_000, 2);
		at(5_000, 1024 ** 2);
		at(6_000, 4 * 1024 ** 2);
		report({ url: 'https://host.test/cached.zip', loaded: 9, total: 9, fromCache: true });
		expect(lines).toEqual([
			`downloading ${url}: 0.0 MB of 4.0 MB\n`,
			`downloading ${url}: 1.0 MB of 4.0 MB\n`,
			`downloading ${url}: 4.0 MB of 4.0 MB\n`
		]);
	});
});
