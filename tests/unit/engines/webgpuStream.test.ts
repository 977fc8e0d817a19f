import type { CompletionUsage } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { collect, toFinishReason, toUsage } from '../../../src/lib/engines/webgpu/worker/stream.ts';

async function* chunks(
	...items: { text?: string; finish?: string | null; usage?: CompletionUsage }[]
) {
	for (const c of items) {
		yield {
			choices: c.usage ? [] : [{ text: c.text ?? '', finish_reason: c.finish ?? null }],
			usage: c.usage
		};
	}
}

describe('collecting a web-llm stream', () => {
	it.each([
		['stop', 'stop'],
		['length', 'length'],
		['abort', 'abort'],
		['tool_calls', 'stop'],
		[null, 'stop']
	] as const)('maps finish_reason %s to %s', (raw, ours) => {
		expect(toFinishReason(raw)).toBe(ours);
	});

	it('falls back to counting deltas when web-llm sends no usage chunk', async () => {
		const res = await collect(
			chunks({ text: 'a' }, { text: '' }, { text: ' b' }, { finish: 'length' }),
			(c) => c.choices[0]?.text,
			{ aborted: false }
		);
		expect(res).toEqual({
			text: 'a b',
			finish_reason: 'length',
			usage: { prompt_tokens: 0, completion_tokens: 2 }
		});
	});

	it('keeps only the timing fields web-llm actually reported', () => {
		const usage = {
			prompt_tokens: 3,
			completion_tokens: 4,
			total_tokens: 7,
			extra: { decode_tokens_per_s: 9 }
		};
		expect(toUsage(usage as unknown as CompletionUsage, 0)).toEqual({
			prompt_tokens: 3,
			completion_tokens: 4,
			decode_tps: 9
		});
	});

	it('stops reading and throws AbortError once aborted', async () => {
		const ctl = { aborted: false };
		const seen: string[] = [];
		const pending = collect(
			chunks({ text: 'a' }, { text: 'b' }, { text: 'c' }, { finish: 'stop' }),
			(c) => c.choices[0]?.text,
			ctl,
			(d) => {
				seen.push(d);
				if (d === 'b') ctl.aborted = true;
			}
		);
		await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
		expect(seen).toEqual(['a', 'b']);
	});
});
