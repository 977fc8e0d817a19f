/** A stalled or retried stream shows "waiting for the server…" state, not a frozen ETA. */
import { describe, expect, it } from 'vitest';
import type {
	CompletionRequest,
	CompletionResult,
	Engine,
	JsonChatRequest
} from '../../../src/lib/probe/engine.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import { RunController, type ServerWait } from '../../../src/lib/state/runner.svelte.ts';
import { foldConversation, indexItems } from '../../../src/lib/live/liveConversation.ts';
import { gsmItem, makeRecord, oneTurnConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { defaultScript, type ScriptFn } from '../../helpers/script.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

const script: ScriptFn = (req) => {
	if (req.kind === 'chat') return defaultScript(req);
	if (req.prompt.endsWith('<|im_start|>assistant\n'))
		return 'They add up.\nThe answer is 7.<|im_end|>';
	return `Why did you add them (variant ${req.seed % 997})?<|im_end|>`;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The first answer request streams two deltas, goes silent, then "breaks" and is retried (as the
 * OpenAI engine does: onRetry, then the whole reply again); everything else is scripted.
 */
class FlakyEngine implements Engine {
	readonly name = 'flaky';
	inner = new ScriptedEngine({ script });
	seen: (ServerWait | null)[] = [];
	#first = true;
	constructor(
		private readonly run: () => RunController,
		private readonly silenceMs: number
	) {}
	capabilities() {
		return this.inner.capabilities();
	}
	load(models: string[]) {
		return this.inner.load(models);
	}
	unload() {
		return this.inner.unload();
	}
	chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		return this.inner.chatJson(req);
	}
	async complete(req: CompletionRequest): Promise<CompletionResult> {
		if (this.#first) {
			this.#first = false;
			req.onToken?.('They ');
			req.onToken?.('ad');
			await sleep(this.silenceMs);
			this.seen.push(this.run().waiting);
			req.onRetry?.({ retry: 1, of: 4, delay_ms: 0, message: 'The connection broke.' });
			await sleep(30);
			this.seen.push(this.run().waiting);
		}
		return this.inner.complete(req);
	}
}

describe('RunController waiting state', () => {
	it('says it is waiting during a silence, then retrying, and clears once tokens flow', async () => {
		const config = oneTurnConfig();
		const run = new RunController({ schedule: (fn) => void fn(), stallMs: 40 });
		const engine = new FlakyEngine(() => run, 120);
		const setup = { engine, judge: engine, template: fixtureTemplate() };
		await run.start({ config, store: new MemoryStore(), prepare: async () => setup });
		expect(run.phase).toBe('done');
		const [silent, retrying] = engine.seen;
		expect(silent?.retry).toBeUndefined();
		expect(silent?.silent_ms).toBeGreaterThanOrEqual(40);
		expect(retrying?.retry).toEqual({ retry: 1, of: 4, message: 'The connection broke.' });
		expect(run.waiting).toBeNull();
		// The broken partial answer was dropped: the conversation shows the answer once.
		expect(run.current?.answer).toBe('They add up.\nThe answer is 7.');
	});

	it('a retry event empties the streamed text it voids', () => {
		const index = indexItems([gsmItem(0)]);
		let c = foldConversation(null, { type: 'stage', stage: 'answer', item_id: 'item-0' }, index);
		c = foldConversation(
			c,
			{ type: 'token', stage: 'answer', item_id: 'item-0', delta: 'partial' },
			index
		);
		expect(c?.answer).toBe('partial');
		c = foldConversation(
			c,
			{
				type: 'retry',
				stage: 'answer',
				item_id: 'item-0',
				retry: 1,
				of: 4,
				delay_ms: 10,
				message: 'reset'
			},
			index
		);
		expect(c?.answer).toBe('');
	});

	it('a turn stored pending stays "judging" until its label arrives', () => {
		const index = indexItems([gsmItem(0)]);
		const pending = makeRecord({ item_id: 'item-0', label: null, label_source: null });
		let c = foldConversation(null, { type: 'record', record: pending }, index);
		c = foldConversation(
			c,
			{ type: 'stage', stage: 'judge', item_id: 'item-0', key: pending.key },
			index
		);
		c = foldConversation(c, { type: 'record', record: pending }, index);
		expect(c?.turns.find((t) => t.key === pending.key)?.judging).toBe(true);
		const labelled = {
			...pending,
			label: 'genuine_followup' as const,
			label_source: 'judge' as const
		};
		c = foldConversation(c, { type: 'record', record: labelled }, index);
		expect(c?.turns.find((t) => t.key === pending.key)).toMatchObject({
			judging: false,
			label: 'genuine_followup'
		});
	});
});
