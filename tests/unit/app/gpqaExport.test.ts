/**
 * A browser-side GPQA run end to end below the view: the token in the settings loads the items
 * from a Hub stand-in, set-up's buildConfig makes the config, the probe runs on a scripted engine,
 * and every export of the run (run file, records + manifest, CSV) holds no trace of the token while
 * the manifest states the option shuffle. Made-up questions only.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConfig, DEFAULT_FORM } from '../../../src/lib/setup/runForm.ts';
import { DATASETS, loadDataset } from '../../../src/lib/datasets/registry.ts';
import { bundleToFiles, recordsToCsv } from '../../../src/lib/probe/exchange.ts';
import { runProbe } from '../../../src/lib/probe/pipeline.ts';
import { bundleToRunFile } from '../../../src/lib/probe/runFile.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';
import { GOOD_TOKEN, startFakeHub, type FakeHub } from '../datasets/fakeHubServer.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

let hub: FakeHub;
beforeAll(async () => {
	const rows = Array.from({ length: 4 }, (_, i) => ({
		Question: `Made-up question ${i}: what does the fictional "glimmer constant" ${i} equal?`,
		'Correct Answer': `${i}.5`,
		'Incorrect Answer 1': `${i}.1`,
		'Incorrect Answer 2': `${i}.2`,
		'Incorrect Answer 3': `${i}.3`,
		'Record ID': `recINVENTED${i}`
	}));
	hub = await startFakeHub({
		repo: 'Idavidrein/gpqa',
		files: { 'gpqa_diamond.csv': Papa.unparse(rows) }
	});
});
afterAll(() => hub.close());

describe('GPQA run export', () => {
	it('contains no token anywhere, and states the option shuffle', async () => {
		const storage = memoryStorage();
		const settings = new EngineSettings(storage);
		settings.hfToken = GOOD_TOKEN;
		const items = await loadDataset('gpqa_diamond', {
			fetch: (url, init) => fetch(url, init),
			token: settings.hfToken,
			hubBase: hub.base
		});
		expect(hub.requests[0].headers.authorization).toBe(`Bearer ${GOOD_TOKEN}`);
		const config = buildConfig(
			{
				...DEFAULT_FORM,
				temperatures: '0',
				perturbations: ['none', 'append'],
				judge_mode: 'rules'
			},
			{
				run_id: 'run-gpqa',
				dataset: 'gpqa_diamond',
				dataset_note: DATASETS.gpqa_diamond.note,
				items,
				generator: { id: 'gen' },
				judge: { id: 'gen' },
				thinking_default: null
			}
		);
		const engine = new ScriptedEngine({
			script: (req) =>
				req.prompt.endsWith('<|im_start|>assistant\n')
					? 'The answer is (B).<|im_end|>'
					: 'Why B?<|im_end|>'
		});
		const store = new MemoryStore();
		for await (const event of runProbe(config, {
			engine,
			judge: engine,
			store,
			template: fixtureTemplate()
		})) {
			void event;
		}
		const manifest = await store.getManifest('run-gpqa');
		const records = await store.getRecords('run-gpqa');
		expect(records.length).toBe(8);
		expect(manifest?.config.dataset_note).toMatch(/shuffled per item/);
		// The engine saw questions with options, never the token.
		expect(JSON.stringify(engine.calls)).not.toContain(GOOD_TOKEN);
		const answers = await Promise.all(items.map((i) => store.getAnswer('run-gpqa', i.id)));
		// Scored by the multiple-choice scorer against each item's shuffled gold letter.
		for (const [k, a] of answers.entries()) {
			expect(a?.correct).toBe(items[k].gold === 'B');
		}
		if (!manifest) throw new Error('no manifest');
		const bundle = {
			manifest,
			records,
			answers: answers.filter((a) => a !== undefined)
		};
		const files = bundleToFiles(bundle);
		for (const text of [
			bundleToRunFile(bundle),
			files.jsonl,
			files.manifest,
			recordsToCsv(records)
		]) {
			expect(text).not.toContain(GOOD_TOKEN);
			expect(text).not.toContain(GOOD_TOKEN.slice(3, 15));
		}
		// Not remembered: nothing on the device holds it either.
		expect([...storage.data.values()].join('\n')).not.toContain(GOOD_TOKEN);
	});
});
