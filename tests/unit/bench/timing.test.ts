import { describe, expect, it } from 'vitest';
import {
	figure,
	measuredDecodeTps,
	measuredPrefillTps,
	measuredTtftMs,
	median,
	overheadMs,
	type RequestSample
} from '../../../src/lib/bench/timing.ts';

function sample(overrides: Partial<RequestSample> = {}): RequestSample {
	return {
		kind: 'short',
		wall_ms: 1000,
		first_token_ms: 200,
		last_token_ms: 900,
		usage: { prompt_tokens: 50, completion_tokens: 15 },
		...overrides
	};
}

describe('timing figures', () => {
	it.each([
		{ name: 'prefill: prompt tokens over time to first token', fn: measuredPrefillTps, want: 250 },
		{ name: 'decode: tokens after the first over first→last', fn: measuredDecodeTps, want: 20 },
		{ name: 'ttft: our first-token time', fn: measuredTtftMs, want: 200 }
	])('$name', ({ fn, want }) => {
		expect(fn(sample())).toBe(want);
	});

	it.each([
		{ name: 'nothing streamed', s: sample({ first_token_ms: null, last_token_ms: null }) },
		{ name: 'a single token', s: sample({ usage: { prompt_tokens: 5, completion_tokens: 1 } }) },
		{ name: 'first and last token at once', s: sample({ last_token_ms: 200 }) }
	])('has no measured decode rate when $name', ({ s }) => {
		expect(measuredDecodeTps(s)).toBeNull();
	});

	it("subtracts the engine's own end-to-end time from our wall-clock", () => {
		expect(
			overheadMs(sample({ usage: { prompt_tokens: 1, completion_tokens: 1, total_ms: 960 } }))
		).toBe(40);
		expect(overheadMs(sample())).toBeNull();
	});

	it("prefers the engine's figure only when every sample reports it", () => {
		const all = [
			sample({ usage: { prompt_tokens: 50, completion_tokens: 15, decode_tps: 30 } }),
			sample({ usage: { prompt_tokens: 50, completion_tokens: 15, decode_tps: 10 } }),
			sample({ usage: { prompt_tokens: 50, completion_tokens: 15, decode_tps: 20 } })
		];
		expect(figure(all, (u) => u.decode_tps, measuredDecodeTps)).toEqual({
			value: 20,
			source: 'engine'
		});
		const mixed = [...all, sample()];
		expect(figure(mixed, (u) => u.decode_tps, measuredDecodeTps)).toEqual({
			value: 20,
			source: 'measured'
		});
		expect(figure([], (u) => u.decode_tps, measuredDecodeTps)).toBeNull();
		expect(figure([sample({ first_token_ms: null })], (u) => u.ttft_ms, measuredTtftMs)).toBeNull();
	});

	it.each([
		{ xs: [3], want: 3 },
		{ xs: [3, 1, 2], want: 2 },
		{ xs: [4, 1, 3, 2], want: 2.5 }
	])('median of $xs is $want', ({ xs, want }) => {
		expect(median(xs)).toBe(want);
	});
});
