/**
 * A template check in a worker: a render that never reaches an in-render limit check (here a
 * worker spinning forever) is terminated at the time limit with the limits named; cancelling
 * terminates it at once; the worker's own answer comes back as the same error text.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { RENDER_TIME_LIMIT_MS } from '../../../src/lib/probe/renderLimits.ts';
import {
	checkIsolated,
	checkReply,
	REPLY_GRACE_MS,
	type CheckWorker
} from '../../../src/lib/probe/templateCheck.ts';
import { CHATML, RUNAWAY_TEMPLATES, withPrefix } from '../../helpers/runawayTemplates.ts';

/** A real worker thread: says ready, then on a request answers with `answer` or never returns. */
function spawnReal(answer: 'spin' | 'reply'): {
	spawn: () => CheckWorker;
	exited: Promise<number>;
} {
	let exited!: Promise<number>;
	const spawn = (): CheckWorker => {
		const w = new Worker(
			`const { parentPort } = require('node:worker_threads');
			parentPort.on('message', () => {
				if (${JSON.stringify(answer)} === 'spin') for (;;) {}
				parentPort.postMessage({ error: null });
			});
			parentPort.postMessage('ready');`,
			{ eval: true }
		);
		exited = new Promise((r) => w.on('exit', r));
		return {
			post: (t) => w.postMessage(t),
			onMessage: (fn) => w.on('message', fn),
			onError: (fn) => w.on('error', fn),
			terminate: () => void w.terminate()
		};
	};
	return {
		spawn,
		get exited() {
			return exited;
		}
	};
}

const chatml = withPrefix('');

describe('checkIsolated', () => {
	it('terminates a worker that renders past the time limit and names the limits', async () => {
		const w = spawnReal('spin');
		const t0 = performance.now();
		await expect(checkIsolated(chatml, w.spawn)).rejects.toThrow(
			/ran longer than 2 s \(a chat template may take 2 s and build 4,000,000 characters/
		);
		const took = performance.now() - t0;
		expect(took).toBeGreaterThanOrEqual(RENDER_TIME_LIMIT_MS);
		expect(took).toBeLessThan(RENDER_TIME_LIMIT_MS + REPLY_GRACE_MS + 1_500);
		await w.exited;
	}, 15_000);

	it('terminates the worker at once when cancelled', async () => {
		const w = spawnReal('spin');
		const ctl = new AbortController();
		const check = checkIsolated(chatml, w.spawn, ctl.signal);
		setTimeout(() => ctl.abort(), 300);
		const t0 = performance.now();
		await expect(check).rejects.toBeInstanceOf(AbortError);
		expect(performance.now() - t0).toBeLessThan(1_000);
		await w.exited;
	}, 15_000);

	it('resolves when the worker says the template passed', async () => {
		const w = spawnReal('reply');
		await expect(checkIsolated(chatml, w.spawn)).resolves.toBeUndefined();
		await w.exited;
	});
});

describe('checkReply', () => {
	it('passes a template that renders a probe exchange', () => {
		expect(checkReply({ source: CHATML, bos_token: null, eos_token: '<|im_end|>' })).toEqual({
			error: null
		});
	});

	it('answers with the limit error of a runaway template', () => {
		const reply = checkReply(withPrefix(RUNAWAY_TEMPLATES['range(300000000)'].prefix));
		expect(reply.error?.name).toBe('TemplateLimitError');
		expect(reply.error?.message).toMatch(/range\(\) of 300,000,000 items/);
	});

	it('answers with the error of a template that does not parse', () => {
		const reply = checkReply({ source: '{% for %}', bos_token: null, eos_token: null });
		expect(reply.error?.message).toMatch(/does not parse/);
	});
});
