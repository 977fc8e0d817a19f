import { describe, expect, it } from 'vitest';
import {
	checkResume,
	compareIdentity,
	datasetSha256,
	fingerprintOfServerModel,
	identityHash,
	runIdentity
} from '../../../src/lib/probe/identity.ts';
import type { RunManifest } from '../../../src/lib/probe/types.ts';
import { gsmItem, probeConfig } from '../../helpers/factories.ts';

const base = { template_sha256: 'abc', judge_prompt_hash: 'j1', dataset_sha256: 'd1' };

function manifestWith(identity: RunManifest['identity'], configOverrides = {}): RunManifest {
	const { items, ...rest } = probeConfig(configOverrides);
	return {
		run_id: 'run-1',
		app_version: 'test',
		created_at: '2026-01-01T00:00:00.000Z',
		engine: 'openai',
		config: { ...rest, item_ids: items.map((i) => i.id), dataset: 'test' },
		template_sha256: 'abc',
		judge_prompt_id: 'utp-judge-v1',
		judge_prompt_hash: 'j1',
		identity,
		status: 'done'
	};
}

describe('run identity', () => {
	it('ignores what only adds records or does not change results', async () => {
		const a = runIdentity({ config: probeConfig(), ...base });
		const b = runIdentity({
			config: probeConfig({
				run_id: 'other',
				temperatures: [0, 2],
				perturbations: ['none'],
				samples: 9,
				items: [gsmItem(7)]
			}),
			...base
		});
		expect(b).toEqual(a);
		expect(await identityHash(b)).toBe(await identityHash(a));
	});

	it('changes with every field that changes what a record means', async () => {
		const a = runIdentity({ config: probeConfig(), ...base });
		for (const [change, field] of [
			[{ seed: 1 }, 'seed'],
			[{ truncate_fraction: 0.3 }, 'truncate_fraction'],
			[{ append_text: 'Hm?' }, 'append_text'],
			[{ max_tokens: 1 }, 'max_tokens'],
			[{ answer_max_tokens: 1 }, 'answer_max_tokens'],
			[{ thinking: true }, 'thinking'],
			[{ dataset: 'gsm8k' }, 'dataset'],
			[{ judge_mode: 'hybrid' }, 'judge_mode'],
			[{ generator: { id: 'g2', template_repo: 'Qwen/Qwen2.5-0.5B-Instruct' } }, 'generator'],
			[{ judge: { id: 'j2' } }, 'judge']
		] as const) {
			const b = runIdentity({ config: probeConfig(change), ...base });
			expect(compareIdentity(manifestWith(a), b).differ, field).toEqual([field]);
			expect(await identityHash(b)).not.toBe(await identityHash(a));
		}
		const fp = runIdentity({
			config: probeConfig(),
			...base,
			generator: { id: 'gen', root: '/b' }
		});
		const fpa = runIdentity({
			config: probeConfig(),
			...base,
			generator: { id: 'gen', root: '/a' }
		});
		expect(compareIdentity(manifestWith(fpa), fp).differ).toEqual(['generator.root']);
	});

	it('leaves the judge out in rules mode (no judge labels any record)', () => {
		const rules = runIdentity({ config: probeConfig({ judge_mode: 'rules' }), ...base });
		expect(Object.keys(rules).filter((k) => k.startsWith('judge'))).toEqual(['judge_mode']);
	});

	it('hashes the same identity the same whatever its key order', async () => {
		const a = runIdentity({ config: probeConfig(), ...base });
		const reversed = Object.fromEntries(Object.entries(a).reverse());
		expect(await identityHash(reversed)).toBe(await identityHash(a));
	});

	it('checks an old manifest without identity on its recorded config; models are unchecked', () => {
		const now = runIdentity({ config: probeConfig(), ...base, generator: { id: 'g', root: '/x' } });
		const same = compareIdentity(manifestWith(undefined), now);
		expect(same).toMatchObject({ differ: [], legacy: true });
		expect(same.unchecked).toEqual(expect.arrayContaining(['dataset_sha256', 'generator.root']));
		const seeded = compareIdentity(manifestWith(undefined, { seed: 5 }), now);
		expect(seeded.differ).toEqual(['seed']);
	});

	it('hashes a dataset by content, not by load order', async () => {
		const items = [gsmItem(0), gsmItem(1)];
		expect(await datasetSha256([...items].reverse())).toBe(await datasetSha256(items));
		expect(await datasetSha256([gsmItem(0), gsmItem(1, { gold: '0' })])).not.toBe(
			await datasetSha256(items)
		);
	});
});

describe('checkResume (the rule the CLI and the browser share)', () => {
	it('lets the same run resume, and names every difference otherwise', () => {
		const id = runIdentity({ config: probeConfig(), ...base, generator: { id: 'g', root: '/a' } });
		expect(checkResume(manifestWith(id), 'run-1', id)).toMatchObject({ conflict: null });
		const other = { ...id, seed: 9, 'generator.root': '/b' };
		expect(checkResume(manifestWith(id), 'run-2', other).conflict).toBe(
			'run_id ("run-1" → "run-2"), generator.root ("/a" → "/b"), seed (1234 → 9)'
		);
	});

	it('flags a fingerprint the engine stopped reporting and keeps it in the identity to store', () => {
		const id = runIdentity({ config: probeConfig(), ...base, generator: { id: 'g', root: '/a' } });
		const now = runIdentity({ config: probeConfig(), ...base, generator: { id: 'g' } });
		const check = checkResume(manifestWith(id), 'run-1', now);
		expect(check).toMatchObject({ conflict: null, vanished: ['generator.root'] });
		expect(check.identity['generator.root']).toBe('/a');
		// A field the run never stored is not flagged: nothing was there to check.
		expect(checkResume(manifestWith(now), 'run-1', id).vanished).toEqual([]);
	});
});

describe('fingerprintOfServerModel', () => {
	it('keeps vLLM root and parent, not the request time or context length', () => {
		const vllm = {
			id: 'qwen',
			object: 'model',
			created: 1763900000,
			owned_by: 'vllm',
			root: '/models/Qwen3-4B-AWQ',
			parent: null,
			max_model_len: 32768,
			permission: [{ id: 'modelperm-1', created: 1763900000 }]
		};
		expect(fingerprintOfServerModel(vllm)).toEqual({
			id: 'qwen',
			owned_by: 'vllm',
			root: '/models/Qwen3-4B-AWQ'
		});
	});

	it("keeps llama-server's meta (canonical JSON) and its path-like id", () => {
		const llama = {
			id: '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf',
			object: 'model',
			created: 1763900000,
			owned_by: 'llamacpp',
			meta: {
				vocab_type: 2,
				n_vocab: 151936,
				n_ctx_train: 32768,
				n_embd: 896,
				n_params: 494032768,
				size: 491400032
			}
		};
		const fp = fingerprintOfServerModel(llama);
		expect(fp.id).toBe('/models/qwen2.5-0.5b-instruct-q4_k_m.gguf');
		expect(fp.meta).toBe(
			'{"n_ctx_train":32768,"n_embd":896,"n_params":494032768,"n_vocab":151936,"size":491400032,"vocab_type":2}'
		);
	});

	it('tolerates entries with nothing but an id (Ollama) and junk', () => {
		expect(
			fingerprintOfServerModel({ id: 'llama3.2', object: 'model', created: 1, owned_by: 'library' })
		).toEqual({
			id: 'llama3.2',
			owned_by: 'library'
		});
		expect(fingerprintOfServerModel(null)).toEqual({});
	});
});
