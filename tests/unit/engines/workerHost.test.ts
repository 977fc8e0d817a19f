import { describe, expect, it } from 'vitest';
import { createWorkerHost, type Operations } from '../../../src/lib/engines/worker/host.ts';
import type { WorkerReply } from '../../../src/lib/engines/worker/protocol.ts';

type Req =
	| { kind: 'work'; id: number; ms: number }
	| { kind: 'finish'; id: number }
	| { kind: 'peek'; id: number }
	| { kind: 'abort'; id: number; target: number };

const sleep = (ms: number, signal?: AbortSignal) =>
	new Promise<void>((resolve, reject) => {
		const t = setTimeout(resolve, ms);
		signal?.addEventListener('abort', () => {
			clearTimeout(t);
			reject(new Error('stopped by the signal'));
		});
	});

/** A host over three toy operations, its replies recorded as the page would receive them. */
function harness() {
	const sent: WorkerReply[] = [];
	const log: string[] = [];
	const ops: Operations<Req> = {
		work: {
			arrive: (msg) => log.push(`arrive ${msg.id}`),
			run: async (msg, job) => {
				log.push(`start ${msg.id}`);
				job.progress({ model: 'm', fraction: 0.5, phase: 'downloading' });
				job.token('t');
				await sleep(msg.ms, job.signal);
				job.progress({ model: 'm', fraction: 1, phase: 'ready' });
				return `done ${msg.id}`;
			}
		},
		finish: {
			line: 'final',
			run: async (msg, job) => {
				await sleep(20);
				return { aborted: job.signal.aborted, id: msg.id };
			}
		},
		peek: { line: 'now', run: async () => ({ running: host.running, queued: host.queued }) }
	};
	const host = createWorkerHost<Req>(ops, (msg) => sent.push(structuredClone(msg)));
	const terminal = (id: number) =>
		sent.filter((m) => m.id === id && (m.kind === 'result' || m.kind === 'error'));
	const until = async (id: number) => {
		for (let i = 0; i < 200 && terminal(id).length === 0; i++) await sleep(5);
		return terminal(id)[0];
	};
	return { host, sent, log, terminal, until };
}

describe('the shared worker host', () => {
	it('answers an unknown kind with an error and ignores messages without an id', async () => {
		const h = harness();
		h.host.handle({ kind: 'explode', id: 7 });
		h.host.handle({ kind: 'work' });
		h.host.handle('noise');
		h.host.handle({ kind: 'toString', id: 8 });
		expect(await h.until(7)).toMatchObject({
			kind: 'error',
			error: { message: 'Unknown request kind.' }
		});
		expect(await h.until(8)).toMatchObject({ kind: 'error' });
		expect(h.sent).toHaveLength(2);
	});

	it('runs serial requests one at a time in arrival order, each answered once', async () => {
		const h = harness();
		h.host.handle({ kind: 'work', id: 1, ms: 20 });
		h.host.handle({ kind: 'work', id: 2, ms: 1 });
		expect(h.log).toEqual(['arrive 1', 'start 1', 'arrive 2']);
		h.host.handle({ kind: 'peek', id: 3 });
		expect(await h.until(3)).toMatchObject({
			kind: 'result',
			value: { running: { id: 1, kind: 'work', aborted: false }, queued: 1 }
		});
		expect(await h.until(2)).toMatchObject({ kind: 'result', value: 'done 2' });
		expect(h.terminal(1)).toEqual([{ kind: 'result', id: 1, value: 'done 1' }]);
		expect(h.log).toEqual(['arrive 1', 'start 1', 'arrive 2', 'start 2']);
		expect(h.sent.filter((m) => m.id === 1).map((m) => m.kind)).toEqual([
			'progress',
			'token',
			'progress',
			'result'
		]);
	});

	it('drops a waiting request at once: it never runs and gets one AbortError', async () => {
		const h = harness();
		h.host.handle({ kind: 'work', id: 1, ms: 20 });
		h.host.handle({ kind: 'work', id: 2, ms: 1 });
		h.host.handle({ kind: 'abort', id: 3, target: 2 });
		expect(await h.until(3)).toMatchObject({ kind: 'result', value: { aborted: true } });
		expect(h.terminal(2)).toMatchObject([{ kind: 'error', error: { name: 'AbortError' } }]);
		await h.until(1);
		await sleep(10);
		expect(h.log).not.toContain('start 2');
		expect(h.terminal(2)).toHaveLength(1);
	});

	it('stops a running request through its signal: AbortError, no progress after the abort', async () => {
		const h = harness();
		h.host.handle({ kind: 'work', id: 1, ms: 5_000 });
		h.host.handle({ kind: 'abort', id: 2, target: 1 });
		expect(await h.until(2)).toMatchObject({ value: { aborted: true } });
		expect(await h.until(1)).toMatchObject({ kind: 'error', error: { name: 'AbortError' } });
		expect(h.sent.filter((m) => m.id === 1 && m.kind === 'progress')).toHaveLength(1);
		h.host.handle({ kind: 'abort', id: 3, target: 1 });
		expect(await h.until(3)).toMatchObject({ value: { aborted: false } });
	});

	it('lets a final request finish and report its real outcome instead of a false abort', async () => {
		const h = harness();
		h.host.handle({ kind: 'finish', id: 1 });
		h.host.handle({ kind: 'abort', id: 2, target: 1 });
		expect(await h.until(2)).toMatchObject({ value: { aborted: false } });
		expect(await h.until(1)).toMatchObject({
			kind: 'result',
			value: { aborted: false, id: 1 }
		});
	});

	it('answers an abort of an unknown or finished request with aborted: false', async () => {
		const h = harness();
		h.host.handle({ kind: 'abort', id: 1, target: 99 });
		expect(await h.until(1)).toMatchObject({ kind: 'result', value: { aborted: false } });
	});
});
