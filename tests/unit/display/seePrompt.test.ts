import { describe, expect, it } from 'vitest';
import { exampleTurns, labelTurn, promptParts } from '../../../src/lib/display/seePrompt.ts';
import { EXAMPLE_CONVERSATION as E } from '../../../src/lib/probe/labels.ts';
import { probePrompt, type ChatTemplate } from '../../../src/lib/probe/template.ts';
import { conversationProbe } from '../../../src/lib/setup/conversationRun.ts';
import { SHIPPED_FAMILIES } from '../../../src/lib/templates/families.ts';
import { shippedTemplate } from '../../../src/lib/templates/shippedTemplates.ts';

const QA = [
	{ role: 'user' as const, content: E.question },
	{ role: 'assistant' as const, content: E.answer }
];

async function family(name: string): Promise<ChatTemplate> {
	const f = SHIPPED_FAMILIES.find((x) => x.family === name);
	const t = f && (await shippedTemplate(f.repos[0]));
	if (!t) throw new Error(`${name}: no shipped template`);
	return t;
}

describe('see what the model sees: the probe prompt', () => {
	it.each(SHIPPED_FAMILIES.map((f) => f.family))(
		'%s: the prompt a run sends, ending with the bare user header, every byte kept',
		async (name) => {
			const t = await family(name);
			const p = conversationProbe(t, QA);
			expect(p.input.prompt.endsWith(p.header)).toBe(true);
			expect(p.input.prompt).toContain(E.question);
			expect(p.input.prompt).toContain(E.answer);
			const parts = promptParts(p.input.prompt, p.header, t);
			expect(parts.map((x) => x.text).join('')).toBe(p.input.prompt);
			expect(
				parts
					.filter((x) => x.header)
					.map((x) => x.text)
					.join('')
			).toBe(p.header);
			expect(parts.some((x) => x.special && !x.header)).toBe(true);
		}
	);

	it('marks ChatML tokens as special and the user header as where the model takes over', async () => {
		const t = await family('Qwen3');
		const p = conversationProbe(t, QA);
		expect(p.header).toBe('<|im_start|>user\n');
		expect(p.input.prompt).toBe(
			probePrompt(t, QA, {
				enable_thinking: true,
				user_header: 'template',
				date_string: '26 Jul 2024'
			})
		);
		const parts = promptParts(p.input.prompt, p.header, t);
		expect(parts.filter((x) => x.header)).toEqual([
			{ text: '<|im_start|>', special: true, header: true },
			{ text: 'user\n', special: false, header: true }
		]);
		expect(parts.filter((x) => x.special && !x.header).map((x) => x.text)).toEqual([
			'<|im_start|>',
			'<|im_end|>',
			'<|im_start|>',
			'<|im_end|>'
		]);
	});

	it('cuts gpt-oss at the role, as its runs do, and marks the GLM prefix', async () => {
		const oss = conversationProbe(await family('gpt-oss'), QA);
		expect(oss.header).toBe('<|start|>user');
		expect(oss.input.prompt).toContain('<|channel|>final<|message|>');
		const glm = await family('GLM-4.7-Flash');
		const p = conversationProbe(glm, QA);
		expect(p.header).toBe('<|user|>');
		const special = promptParts(p.input.prompt, p.header, glm).filter((x) => x.special);
		expect(special.map((x) => x.text).slice(0, 2)).toEqual(['[gMASK]', '<sop>']);
	});

	it('keeps text that only looks like markup inside the question as the template wrote it', async () => {
		const t = await family('Qwen2.5');
		const p = conversationProbe(t, [
			{ role: 'user', content: 'Is <b>bold</b> a tag?' },
			{ role: 'assistant', content: 'Yes.' }
		]);
		const parts = promptParts(p.input.prompt, p.header, t);
		expect(parts.find((x) => x.text.includes('<b>bold</b>'))?.special).toBe(false);
	});

	it('says what is wrong when there is no question before the answer', async () => {
		const t = await family('Qwen3');
		expect(() => conversationProbe(t, [{ role: 'assistant', content: 'A.' }])).toThrow(
			/user message before the answer/
		);
	});
});

describe('see what the model sees: a user turn and its label', () => {
	it('offers one example per label, in the order the rules check them', () => {
		const turns = exampleTurns();
		expect(turns.map((e) => e.label)).toEqual([
			'genuine_followup',
			'degenerate',
			'assistant_restatement',
			'malformed_artifact',
			'prompt_restatement',
			'meta_planning',
			'undecided'
		]);
		for (const e of turns) expect(e.text).not.toMatch(/^"|"$|\\n/);
		expect(turns.find((e) => e.label === 'malformed_artifact')?.text).toContain('\n');
	});

	// Every button through the real rules, with every shipped template's stop tokens: a failure
	// button gives a turn the rules label as it says; the judge's kinds say so before "undecided".
	it.each(SHIPPED_FAMILIES.map((f) => f.family))(
		'%s: every example is labelled by the rules as its button says, or is marked the judge’s call',
		async (name) => {
			const t = await family(name);
			const p = conversationProbe(t, QA);
			const question = p.config.items[0].prompt;
			for (const e of exampleTurns(question, p.input.perturbed)) {
				const got = labelTurn(t, question, p.input.perturbed, e.text);
				if (e.judgesCall === undefined) {
					expect([e.label, got.rule.label, got.rule.reason]).toEqual([
						e.label,
						e.label,
						got.rule.reason
					]);
					expect(got.needsJudge).toBe(false);
				} else {
					expect(got.rule.label).toBe('undecided');
					expect(e.judgesCall).toMatch(/judge’s call.*will say undecided/);
				}
			}
		}
	);

	it('keeps the restatements restatements when the conversation is edited', async () => {
		const t = await family('Qwen3');
		const question =
			'A train travels 60 km in 1.5 hours. What is its average speed in km per hour?';
		const answer = 'Its speed is 60 / 1.5 = 40 km per hour. The answer is 40.';
		const turns = exampleTurns(question, answer);
		for (const label of ['prompt_restatement', 'assistant_restatement']) {
			const text = turns.find((e) => e.label === label)?.text ?? '';
			expect(labelTurn(t, question, answer, text).rule.label).toBe(label);
		}
	});

	it('labels as a run does: failures by rule with the evidence, a follow-up left to the judge', async () => {
		const t = await family('Qwen3');
		const turn = (label: string) => exampleTurns().find((e) => e.label === label)?.text ?? '';
		const loop = labelTurn(t, E.question, E.answer, turn('degenerate'));
		expect(loop.rule.label).toBe('degenerate');
		expect(loop.rule.reason).toMatch(/repetition loop/);
		expect(loop.needsJudge).toBe(false);
		const artifact = labelTurn(t, E.question, E.answer, turn('malformed_artifact'));
		expect(artifact.rule).toMatchObject({ label: 'malformed_artifact', verdict: 'not_genuine' });
		expect(artifact.rule.reason).toContain('<|im_end|>');
		const copy = labelTurn(t, E.question, E.answer, E.question);
		expect(copy.rule.label).toBe('prompt_restatement');
		const followUp = labelTurn(t, E.question, E.answer, turn('genuine_followup'));
		expect(followUp.rule).toMatchObject({ label: 'undecided', verdict: 'undecided' });
		expect(followUp.needsJudge).toBe(true);
	});

	it('does not count the template stop token left at the end of a turn as debris', async () => {
		const t = await family('Qwen3');
		const r = labelTurn(t, E.question, E.answer, 'Why did you subtract 4?<|im_end|>');
		expect(r.rule.label).toBe('undecided');
	});
});
