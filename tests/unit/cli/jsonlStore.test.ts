import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlStore, sidecarPaths } from '../../../src/cli/jsonlStore.ts';
import { probeRecord } from '../../helpers/probeFactories.ts';

const tmp = () => join(mkdtempSync(join(tmpdir(), 'utp-store-')), 'out.jsonl');

describe('JsonlStore', () => {
	it('puts the manifest and answers beside the records file', () => {
		expect(sidecarPaths('/x/run.jsonl')).toEqual({
			records: '/x/run.jsonl',
			answers: '/x/run.answers.jsonl',
			manifest: '/x/run.manifest.json'
		});
	});

	it('reads back what it wrote after a restart', async () => {
		const out = tmp();
		const a = new JsonlStore(out);
		await a.putRecord(probeRecord({ key: 'k1' }));
		await a.putRecord(probeRecord({ key: 'k2' }));
		const b = new JsonlStore(out);
		expect((await b.getRecords('run-1')).map((r) => r.key).sort()).toEqual(['k1', 'k2']);
	});

	it('drops a torn last line left by a crash and keeps every whole one', async () => {
		const out = tmp();
		const a = new JsonlStore(out);
		await a.putRecord(probeRecord({ key: 'k1' }));
		appendFileSync(out, '{"run_id":"run-1","key":"k2","ite');
		const b = new JsonlStore(out);
		expect((await b.getRecords('run-1')).map((r) => r.key)).toEqual(['k1']);
		await b.putRecord(probeRecord({ key: 'k2' }));
		expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
	});

	it('reads a re-stored record last-write-wins and compacts to one line per key', async () => {
		const out = tmp();
		const a = new JsonlStore(out);
		await a.putRecord(probeRecord({ key: 'k1', label: null }));
		await a.putRecord(probeRecord({ key: 'k1', label: 'degenerate' }));
		expect((await new JsonlStore(out).getRecords('run-1'))[0].label).toBe('degenerate');
		a.compact();
		const text = readFileSync(out, 'utf8').split('\n').filter(Boolean);
		expect(text).toHaveLength(1);
		expect(JSON.parse(text[0]).label).toBe('degenerate');
	});

	it('remembers the run id of the file so the same command resumes it', async () => {
		const out = tmp();
		const a = new JsonlStore(out);
		expect(a.runId).toBeUndefined();
		await a.putManifest({ run_id: 'r-9' } as Parameters<JsonlStore['putManifest']>[0]);
		expect(new JsonlStore(out).runId).toBe('r-9');
	});
});
