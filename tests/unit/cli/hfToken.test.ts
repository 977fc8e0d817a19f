/**
 * Where the Hugging Face token goes, recorded by a network guard around the CLI's dataset loader:
 * to huggingface.co for the gated GPQA sets, and to nobody for the open ones (before, every
 * datasets-server request for GSM8K, IFEval, IFBench and conversations carried it).
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { loadItems } from '../../../src/cli/run.ts';
import { DATASETS } from '../../../src/lib/datasets/registry.ts';
import { fakeHfServer } from '../datasets/fakeHfServer.ts';
import { gsm8kLines } from '../datasets/hfFixtureRows.ts';

const TOKEN = 'hf_secret_token';

/** Every request's host, and whether it carried the token. */
function guard(inner: (url: string, init?: RequestInit) => Promise<unknown>) {
	const seen: { host: string; token: boolean }[] = [];
	const fetch = (async (url: string | URL, init?: RequestInit) => {
		const auth = new Headers(init?.headers).get('authorization') ?? '';
		seen.push({ host: new URL(String(url)).host, token: auth.includes(TOKEN) });
		return (await inner(String(url), init)) as Response;
	}) as typeof globalThis.fetch;
	return { seen, fetch };
}

const silent = { write: () => true };

describe('the Hugging Face token reaches only the host that needs it', () => {
	it('is sent to no one for an open dataset', async () => {
		const server = fakeHfServer(
			gsm8kLines()
				.slice(0, 150)
				.map((l) => ({ ...l }))
		);
		const net = guard((url, init) => server.fetch(url, init as never));
		const items = await loadItems('gsm8k', { stderr: silent, fetch: net.fetch }, TOKEN);
		expect(items).toHaveLength(150);
		expect(net.seen.length).toBeGreaterThan(0);
		expect(net.seen.filter((r) => r.token)).toEqual([]);
		expect(new Set(net.seen.map((r) => r.host))).toEqual(
			new Set(['datasets-server.huggingface.co'])
		);
	});

	it('is sent to huggingface.co only for a gated set', async () => {
		expect(DATASETS.gpqa_diamond.needs.hfToken).toBeTruthy();
		const csv = Papa.unparse([
			{
				Question: 'Made-up: how many legs has a quib?',
				'Correct Answer': '3',
				'Incorrect Answer 1': '4',
				'Incorrect Answer 2': '5',
				'Incorrect Answer 3': '6',
				'Record ID': 'recMADEUP0'
			}
		]);
		const net = guard(async () => new Response(csv, { status: 200 }));
		const items = await loadItems('gpqa_diamond', { stderr: silent, fetch: net.fetch }, TOKEN);
		expect(items).toHaveLength(1);
		expect(net.seen).toEqual([{ host: 'huggingface.co', token: true }]);
	});
});
