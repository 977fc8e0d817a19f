import { describe, expect, it } from 'vitest';
import { identityHash } from '../../../src/lib/probe/identity.ts';
import { prepareRun } from '../../../src/lib/probe/prepare.ts';
import { referencePromptHash } from '../../../src/lib/probe/referenceJudge.ts';
import { gsmItem, makeManifest, runValues } from '../../helpers/factories.ts';

const items = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => gsmItem(i));

describe('prepareRun', () => {
	it('hashes the whole dataset into the identity, so a larger item count extends the run', async () => {
		const small = await prepareRun(runValues({ items, limit: 3 }));
		const large = await prepareRun(runValues({ items, limit: 6 }));
		expect(large.config.items.slice(0, 3)).toEqual(small.config.items);
		expect(large.identity).toEqual(small.identity);
		expect(large.manifestExtras.config_hash).toBe(small.manifestExtras.config_hash);
	});

	it('tells an edited dataset apart, even where the edit is in an item not drawn', async () => {
		const run = await prepareRun(runValues({ items, limit: 2 }));
		const drawn = new Set(run.config.items.map((i) => i.id));
		const other = items.find((i) => !drawn.has(i.id));
		if (!other) throw new Error('every item was drawn');
		const edited = items.map((i) => (i === other ? { ...i, gold: '999' } : i));
		const after = await prepareRun(runValues({ items: edited, limit: 2 }));
		expect(after.config.items).toEqual(run.config.items);
		expect(after.identity.dataset_sha256).not.toBe(run.identity.dataset_sha256);
	});

	it('names the comparison prompt in the identity only when items carry reference turns and a judge compares', async () => {
		const thread = gsmItem(0, { task: 'none', fixed_answer: 'Seven.', reference_turn: 'Why?' });
		const judged = await prepareRun(runValues({ items: [thread] }));
		expect(judged.identity.reference_prompt_hash).toBe(await referencePromptHash());
		expect((await prepareRun(runValues({ items }))).identity).not.toHaveProperty(
			'reference_prompt_hash'
		);
		const rules = await prepareRun(runValues({ items: [thread], judge_mode: 'rules' }));
		expect(rules.identity).not.toHaveProperty('reference_prompt_hash');
	});

	it('keeps every item in load order with limit 0, and says what the run needs', async () => {
		const all = await prepareRun(runValues({ items, judge_mode: 'rules' }));
		expect(all.config.items).toEqual(items);
		expect(all.needs).toEqual({ nlp: false, judge: false });
		const ifeval = gsmItem(0, {
			task: 'ifeval',
			instruction_ids: ['length_constraints:number_sentences'],
			kwargs: [{}]
		});
		expect((await prepareRun(runValues({ items: [ifeval] }))).needs.nlp).toBe(true);
	});

	it('follows the template on thinking: its default unless chosen, never where it ignores the flag', async () => {
		const thinking = async (thinking: boolean | null, thinking_default: boolean | null) =>
			(await prepareRun(runValues({ thinking, thinking_default }))).config.thinking;
		expect(await thinking(null, true)).toBe(true);
		expect(await thinking(false, true)).toBe(false);
		expect(await thinking(true, false)).toBe(true);
		expect(await thinking(true, null)).toBe(false);
	});

	it('checks the identity against a stored run once, keeping its fingerprints in what is stored', async () => {
		const made = await prepareRun(
			runValues({ items, run_id: 'r', models: { generator: { id: 'gen', root: '/m/a' } } })
		);
		const stored = makeManifest({
			run_id: 'r',
			identity: made.identity,
			config_hash: made.manifestExtras.config_hash
		});
		// The server no longer reports the root: the check says so, and the identity keeps it.
		const again = await prepareRun(runValues({ items, run_id: 'r' }), { stored });
		expect(again.resume).toMatchObject({ conflict: null, vanished: ['generator.root'] });
		expect(again.identity['generator.root']).toBe('/m/a');
		expect(again.manifestExtras.identity).toEqual(again.identity);
		expect(again.manifestExtras.config_hash).toBe(await identityHash(again.identity));
		// Another seed is a conflict the shell refuses; a run with nothing stored has no check.
		const other = await prepareRun(runValues({ items, run_id: 'r', seed: 7 }), { stored });
		expect(other.resume?.conflict).toMatch(/seed/);
		expect((await prepareRun(runValues({ items, run_id: 'r' }))).resume).toBeUndefined();
	});
});
