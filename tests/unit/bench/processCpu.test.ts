import { describe, expect, it } from 'vitest';
import {
	chromiumCpu,
	chromiumType,
	cpuSpent,
	describeCpu,
	parseStat
} from '../../bench/browser/processCpu.ts';

describe('parseStat', () => {
	it('reads the parent and user + system ticks, counting fields from the last ")"', () => {
		// A name with spaces and a ")" of its own, as a renamed thread or process may have.
		const line =
			'4242 (Web Content (x) 1) S 4100 4242 4100 0 -1 4194560 100 0 0 0 1234 567 0 0 20 0 30 0';
		expect(parseStat(line)).toEqual({ ppid: 4100, cpuMs: 18_010 });
	});

	it('refuses a line it cannot read rather than counting garbage', () => {
		expect(parseStat('no parenthesis here')).toBeNull();
		expect(parseStat('1 (x) S')).toBeNull();
	});
});

describe('chromiumType', () => {
	it('names the browser, its children by --type and utility processes by service', () => {
		expect(chromiumType('/usr/lib/chromium/chromium\0--headless\0--remote-debugging-pipe\0')).toBe(
			'browser'
		);
		expect(chromiumType('/usr/lib/chromium/chromium\0--type=renderer\0--lang=en\0')).toBe(
			'renderer'
		);
		// Chromium rewrites its title: the arguments joined by spaces.
		expect(
			chromiumType(
				'/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en'
			)
		).toBe('utility:network');
		expect(chromiumType('/usr/lib/chromium/chromium --type=utility --lang=en')).toBe('utility');
		expect(chromiumType('/usr/lib/chromium/chromium --type=gpu-process')).toBe('gpu-process');
	});

	it('leaves out processes that are not Chromium', () => {
		expect(chromiumType('/usr/bin/node\0--import\0tsx\0mock.ts\0')).toBeNull();
		expect(chromiumType('')).toBeNull();
	});
});

describe('cpuSpent and describeCpu', () => {
	it('takes what each type spent between two readings, the largest first', () => {
		const spent = cpuSpent(
			{ renderer: 1_000, browser: 500, 'gpu-process': 200 },
			{ renderer: 15_000, browser: 6_500, 'gpu-process': 200, 'utility:network': 2_500 }
		);
		expect(spent).toEqual({ renderer: 14_000, browser: 6_000, 'utility:network': 2_500 });
		expect(describeCpu(spent)).toBe('22.5 s CPU: renderer 14.0, browser 6.0, utility:network 2.5');
	});

	it('says no CPU when nothing ran', () => {
		expect(describeCpu({})).toBe('0.0 s CPU');
	});
});

describe('chromiumCpu', () => {
	it.runIf(process.platform === 'linux')(
		'finds no Chromium below a process that started none',
		() => {
			expect(chromiumCpu()).toEqual({});
		}
	);
});
