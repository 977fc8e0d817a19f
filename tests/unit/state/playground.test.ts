import { describe, expect, it } from 'vitest';
import { Playground } from '../../../src/lib/state/playground.svelte.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import type { ScriptFn } from '../../helpers/script.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

/** Distinct user turns by seed; a fixed answer; a judge that always says meta_planning. */
const script: ScriptFn = (req) => {
	if (req.kind === 'chat') return '{"label": "meta_planning", "rationale": "plans the reply"}';
	if (req.prompt.endsWith('<|im_start|>assistant\n')) return 'It is 4.<|im_end|>';
	return `Could you show it another way, version ${req.seed % 1000}?<|im_end|>`;
};

const template = async () => fixtureTemplate('Qwen/Qwen2.5-0.5B-Instruct');

describe('Playground', () => {
	it('renders the probe prompt ending in the bare user header and makes N labelled turns', async () => {
		const engine = new ScriptedEngine({ script });
		const pg = new Playground();
		pg.n = 3;
		pg.temperature = 1;
		await pg.generate({ engine, model: 'm', template });
		expect(pg.phase).toBe('done');
		expect(pg.header).toBe('<|im_start|>user\n');
		expect(pg.prompt.endsWith('<|im_end|>\n<|im_start|>user\n')).toBe(true);
		expect(pg.prompt).toContain('Janet’s ducks lay 16 eggs per day.');
		expect(pg.samples).toHaveLength(3);
		expect(new Set(pg.samples.map((s) => s.text)).size).toBe(3);
		for (const s of pg.samples) {
			expect(s.streaming).toBe(false);
			// No judge here: a follow-up no rule catches stays undecided, as in a rules-only run.
			expect(s.label).toBe('undecided');
			expect(s.source).toBe('rules');
		}
		expect(engine.calls.every((c) => c.prompt === pg.prompt)).toBe(true);
	});

	it('answers first when the conversation ends with the user, then probes after that answer', async () => {
		const engine = new ScriptedEngine({ script });
		const pg = new Playground();
		pg.turns = [{ role: 'user', content: 'What is 2 + 2?' }];
		pg.n = 1;
		await pg.generate({ engine, model: 'm', template });
		expect(pg.turns).toEqual([
			{ role: 'user', content: 'What is 2 + 2?' },
			{ role: 'assistant', content: 'It is 4.' }
		]);
		expect(engine.calls[0].prompt.endsWith('<|im_start|>assistant\n')).toBe(true);
		expect(pg.prompt).toContain('<|im_start|>assistant\nIt is 4.<|im_end|>');
	});

	it('asks the judge only about turns the rules leave undecided', async () => {
		const engine = new ScriptedEngine({ script });
		const pg = new Playground();
		pg.n = 2;
		await pg.generate({ engine, model: 'm', template, judge: { engine, model: 'j' } });
		expect(engine.loads).toEqual([['m', 'j']]);
		expect(engine.count('chat')).toBe(2);
		expect(pg.samples.map((s) => [s.label, s.source, s.reason])).toEqual([
			['meta_planning', 'judge', 'plans the reply'],
			['meta_planning', 'judge', 'plans the reply']
		]);
	});

	it('labels a turn with template tokens by the rules, without the judge', async () => {
		const engine = new ScriptedEngine({
			script: (req) =>
				req.kind === 'chat'
					? '{"label":"genuine_followup","verdict":"genuine"}'
					: 'Why 18?\n<|im_start|>assistant\nBecause 9 × 2 = 18.'
		});
		const pg = new Playground();
		pg.n = 1;
		await pg.generate({ engine, model: 'm', template, judge: { engine, model: 'j' } });
		expect(pg.samples[0].label).toBe('malformed_artifact');
		expect(pg.samples[0].source).toBe('rules');
		expect(engine.count('chat')).toBe(0);
	});

	it('reports a template failure as an error, and stop() ends a generation early', async () => {
		const pg = new Playground();
		await pg.generate({
			engine: new ScriptedEngine({ script }),
			model: 'm',
			template: () => Promise.reject(new Error('No chat template found.'))
		});
		expect(pg.phase).toBe('failed');
		expect(pg.error).toBe('No chat template found.');

		const slow = new ScriptedEngine({ script, tokenDelayMs: 5 });
		pg.n = 5;
		const run = pg.generate({ engine: slow, model: 'm', template });
		await new Promise((r) => setTimeout(r, 30));
		pg.stop();
		await run;
		expect(pg.phase).toBe('stopped');
		expect(pg.error).toBeNull();
		expect(pg.samples.length).toBeLessThan(5);
	});

	it('lists what blocks Generate', () => {
		const pg = new Playground();
		expect(pg.problems()).toEqual([]);
		pg.turns = [{ role: 'assistant', content: 'Hi' }];
		pg.n = 0;
		expect(pg.problems()).toEqual([
			'The conversation must start with a user turn.',
			'Generate between 1 and 10 user turns.'
		]);
	});
});
