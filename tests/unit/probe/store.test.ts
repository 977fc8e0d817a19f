import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/lib/probe/store.ts';

describe('MemoryStore', () => {
	it('replaces a record with the same run and key instead of duplicating it', async () => {
		const store = new MemoryStore();
		const base = { run_id: 'r', key: 'k' } as Parameters<MemoryStore['putRecord']>[0];
		await store.putRecord({ ...base, label: null });
		await store.putRecord({ ...base, label: 'degenerate' });
		const rows = await store.getRecords('r');
		expect(rows).toHaveLength(1);
		expect(rows[0].label).toBe('degenerate');
	});
});
