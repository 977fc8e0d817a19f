import { describe, expect, it } from 'vitest';
import { Channel } from '../../../src/lib/probe/async.ts';
import { mergeTokens, type ProbeEvent } from '../../../src/lib/probe/events.ts';

const token = (delta: string, key = 'k1', stage: 'answer' | 'user_turn' = 'user_turn') =>
	({ type: 'token', stage, item_id: 'i1', key, delta }) as const satisfies ProbeEvent;

async function take<T>(ch: Channel<T>, n: number): Promise<T[]> {
	const out: T[] = [];
	for await (const x of ch.drain()) {
		out.push(x);
		if (out.length === n) break;
	}
	return out;
}

describe('Channel', () => {
	it('hands every pushed item over in order when nothing merges', async () => {
		const ch = new Channel<number>();
		[1, 2, 3].forEach((x) => ch.push(x));
		ch.close();
		expect(await take(ch, 10)).toEqual([1, 2, 3]);
	});

	it('folds items pushed while the consumer is behind, and only the last queued one', async () => {
		const ch = new Channel<ProbeEvent>(mergeTokens);
		ch.push(token('The '));
		ch.push(token('answer '));
		ch.push({ type: 'stage', stage: 'judge', item_id: 'i1', key: 'k1' });
		ch.push(token('is '));
		ch.push(token('42', 'k2'));
		ch.push(token('.', 'k2'));
		ch.close();
		expect(await take(ch, 10)).toEqual([
			token('The answer '),
			{ type: 'stage', stage: 'judge', item_id: 'i1', key: 'k1' },
			token('is '),
			token('42.', 'k2')
		]);
	});

	it('never folds into an event the consumer already took', async () => {
		const ch = new Channel<ProbeEvent>(mergeTokens);
		const seen: ProbeEvent[] = [];
		const consumer = (async () => {
			for await (const e of ch.drain()) seen.push(e);
		})();
		ch.push(token('a'));
		await new Promise((r) => setTimeout(r, 0));
		ch.push(token('b'));
		ch.close();
		await consumer;
		expect(seen).toEqual([token('a'), token('b')]);
	});
});

describe('mergeTokens', () => {
	it('joins deltas of one stream only', () => {
		expect(mergeTokens(token('a'), token('b'))).toEqual(token('ab'));
		expect(mergeTokens(token('a'), token('b', 'k2'))).toBeUndefined();
		expect(mergeTokens(token('a', 'k1', 'answer'), token('b'))).toBeUndefined();
		expect(
			mergeTokens(token('a'), { type: 'stage', stage: 'judge', item_id: 'i1' })
		).toBeUndefined();
	});
});
