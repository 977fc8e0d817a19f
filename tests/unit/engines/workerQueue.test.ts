import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../src/lib/engines/worker/queue.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('SerialQueue', () => {
	it('runs jobs one at a time in arrival order, past a job that throws', async () => {
		const queue = new SerialQueue<string>();
		const log: string[] = [];
		const job = (id: number, fail = false) => ({
			id,
			kind: 'k',
			run: async () => {
				log.push(`start ${id}`);
				await tick();
				log.push(`end ${id}`);
				if (fail) throw new Error('job failed');
			}
		});
		queue.push(job(1, true));
		queue.push(job(2));
		expect(queue.running).toEqual({ id: 1, kind: 'k' });
		expect(queue.length).toBe(1);
		await new Promise((r) => setTimeout(r, 20));
		expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
		expect(queue.running).toBeNull();
	});

	it('removes a waiting job but not the running one', () => {
		const queue = new SerialQueue();
		const never = () => new Promise<void>(() => undefined);
		queue.push({ id: 1, kind: 'a', run: never });
		queue.push({ id: 2, kind: 'b', run: never });
		expect(queue.remove(1)).toBe(false);
		expect(queue.remove(2)).toBe(true);
		expect(queue.remove(2)).toBe(false);
		expect(queue.length).toBe(0);
	});
});
