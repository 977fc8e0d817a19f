/**
 * What set-up says before the start, once loaded: the generator's context window or that the
 * server does not report it, a warning when the run's longest prompt and user turn cannot fit it
 * (following the form as it changes), and what the download adds to the time.
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { estimateRun } from '../../../src/lib/setup/estimate.ts';
import { DEFAULT_FORM } from '../../../src/lib/setup/runForm.ts';
import StartNotes from '../../../src/views/setup/StartNotes.svelte';

afterEach(cleanup);

const text = (id: string) =>
	screen.queryByTestId(id)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
const estimate = (cached: boolean, download_speed?: { MB_per_s: number; at: string }) =>
	estimateRun({
		items: 4,
		conditions: 2,
		judge_mode: 'rules',
		guess_tps: 10,
		models: [{ id: 'm', download_MB: 1_200, cached }],
		answer_max_tokens: 1024,
		max_tokens: 256,
		download_speed
	});
const LLAMA = { state: 'known', tokens: 4096, source: 'n_ctx in llama-server /props' } as const;

describe('StartNotes', () => {
	it("shows a server model's window and warns only while a typed limit cannot fit it", async () => {
		const values = { ...DEFAULT_FORM, answer_tokens_auto: false, answer_max_tokens: 4096 };
		const props = { generatorWindow: LLAMA, server: true, values, estimate: estimate(true) };
		const view = render(StartNotes, { ...props, downloads: false });
		expect(text('context-window')).toBe(
			'Context window: 4,096 tokens (n_ctx in llama-server /props)'
		);
		expect(text('context-fit')).toContain('need 4,864 tokens, more than the 4,096-token');
		await view.rerender({ ...props, values: { ...values, answer_max_tokens: 2048 } });
		expect(text('context-fit')).toBeNull();
		await view.rerender({ ...props, values: { ...values, answer_tokens_auto: true } });
		expect(text('context-fit')).toBeNull();
		expect(text('estimate-download-time')).toBeNull();
	});

	it('says "not reported" for a server that does not tell, and warns of nothing', () => {
		render(StartNotes, {
			generatorWindow: { state: 'not reported' },
			server: true,
			values: { ...DEFAULT_FORM, answer_tokens_auto: false, answer_max_tokens: 100_000 },
			estimate: estimate(true),
			downloads: false
		});
		expect(text('context-window')).toBe('Context window: not reported by the server');
		expect(text('context-fit')).toBeNull();
	});

	it('on this device: the download time from the last download, or that the time leaves it out', async () => {
		const props = {
			generatorWindow: { state: 'known', tokens: 32768 } as const,
			server: false,
			values: DEFAULT_FORM,
			downloads: true
		};
		const view = render(StartNotes, { ...props, estimate: estimate(false) });
		expect(text('estimate-download-time')).toBe(
			'The time excludes the 1,200 MB download: no download has been timed in this browser yet.'
		);
		const speed = { MB_per_s: 20, at: '2026-11-20T09:00:00.000Z' };
		await view.rerender({ ...props, estimate: estimate(false, speed) });
		expect(text('estimate-download-time')).toBe(
			'Downloading adds about 1 min, at 20 MB/s, the speed of the last download here (2026-11-20).'
		);
		await view.rerender({ ...props, estimate: estimate(true, speed) });
		expect(text('estimate-download-time')).toBeNull();
		expect(text('context-window')).toBe('Context window: 32,768 tokens');
	});
});
