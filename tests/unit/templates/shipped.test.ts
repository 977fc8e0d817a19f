import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { probePrompt, renderChat, type ChatTemplate } from '../../../src/lib/probe/template.ts';
import { SHIPPED_FAMILIES, shippedFamilyFor } from '../../../src/lib/templates/families.ts';
import { copiedTemplate } from '../../../src/lib/templates/shipped.ts';
import { readFixture } from '../../helpers/fixtures.ts';

interface FixtureEntry {
	file: string;
	bos_token: string | null;
	eos_token: string | null;
	extra_stop_tokens: string[];
	sha256: string;
	verbatim: boolean;
}
const index = JSON.parse(readFixture('templates/index.json')) as Record<string, FixtureEntry>;
const copies = SHIPPED_FAMILIES.filter((f) => f.origin.kind === 'copy');
const copiedRepos = copies.flatMap((f) => f.repos);

async function copy(repo: string): Promise<ChatTemplate> {
	const t = await copiedTemplate(repo);
	if (!t) throw new Error(`${repo}: no copied template`);
	return t;
}

const QA = [
	{ role: 'user' as const, content: 'Q?' },
	{ role: 'assistant' as const, content: 'A.' }
];
const Q = [{ role: 'user' as const, content: 'Q?' }];
/** gpt-oss writes today's date from strftime_now; the fixtures' renders carry the day they ran. */
const undated = (s: string) => s.replace(/Current date: [^\n]*/, 'Current date: <date>');

describe('templates copied into the repo', () => {
	it('ships the paper families Qwen3.5, gpt-oss and GLM-4.7-Flash, and no stand-in', () => {
		expect(copiedRepos).toEqual(
			expect.arrayContaining([
				'Qwen/Qwen3.5-0.8B',
				'Qwen/Qwen3.5-2B',
				'Qwen/Qwen3.5-4B',
				'openai/gpt-oss-20b',
				'openai/gpt-oss-120b',
				'zai-org/GLM-4.7-Flash'
			])
		);
		// The fixtures' GLM-4.7 file is Flash's text under another name, not GLM-4.7's own.
		expect(index['zai-org/GLM-4.7'].verbatim).toBe(false);
		expect(shippedFamilyFor('zai-org/GLM-4.7')).toBeUndefined();
	});

	it.each(copiedRepos)('%s equals the verbatim shared fixture, byte for byte', async (repo) => {
		const golden = index[repo];
		expect(golden?.verbatim, `${repo} must be a verbatim fixture`).toBe(true);
		const t = await copy(repo);
		expect(t.source).toBe(readFixture(`templates/${golden.file}`));
		expect(createHash('sha256').update(t.source, 'utf8').digest('hex')).toBe(golden.sha256);
		expect(t.sha256).toBe(golden.sha256);
		expect(t.bos_token).toBe(golden.bos_token);
		expect(t.eos_token).toBe(golden.eos_token);
		expect(t.extra_stop_tokens).toEqual(golden.extra_stop_tokens);
		expect(t.repo).toBe(repo);
	});

	it('names the source, its revision and the licence of every copy', async () => {
		for (const f of copies) {
			if (f.origin.kind !== 'copy') continue;
			expect(f.origin.source).toMatch(/@ [0-9a-f]{40}/);
			expect(f.origin.licence).toMatch(/^(Apache-2\.0|MIT)$/);
			expect(f.origin.sha256).toBe(index[f.repos[0]].sha256);
			const t = await copy(f.repos[0]);
			expect(t.provenance).toBe(`copy of ${f.origin.source}, ${f.origin.licence}`);
		}
	});

	it('leaves the npm-shipped families to the build (no copy of them)', async () => {
		expect(await copiedTemplate('Qwen/Qwen3-0.6B')).toBeUndefined();
		expect(await copiedTemplate('HuggingFaceTB/SmolLM2-360M-Instruct')).toBeUndefined();
	});
});

// The reference renders of ../shared/fixtures/templates/PROVENANCE.md, as written there.
describe('copied templates render the fixtures’ reference renders', () => {
	it('Qwen3.5 (0.8B, 2B, 4B)', async () => {
		for (const repo of ['Qwen/Qwen3.5-0.8B', 'Qwen/Qwen3.5-2B', 'Qwen/Qwen3.5-4B']) {
			const t = await copy(repo);
			for (const enable_thinking of [undefined, true, false]) {
				expect(renderChat(t, QA, { add_generation_prompt: false, enable_thinking })).toBe(
					'<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nA.<|im_end|>\n'
				);
			}
			const open = '<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\n<think>\n';
			expect(renderChat(t, Q, { add_generation_prompt: true })).toBe(open);
			expect(renderChat(t, Q, { add_generation_prompt: true, enable_thinking: true })).toBe(open);
			expect(renderChat(t, Q, { add_generation_prompt: true, enable_thinking: false })).toBe(
				'<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n'
			);
			expect(probePrompt(t, QA).endsWith('<|im_end|>\n<|im_start|>user\n')).toBe(true);
		}
	});

	it('Qwen3.5: the probe prompt has no think block, as the family note says', async () => {
		const t = await copy('Qwen/Qwen3.5-2B');
		const earlier = [...QA, { role: 'user' as const, content: 'Q2?' }, QA[1]];
		for (const enable_thinking of [undefined, true, false]) {
			// The answer is followed by a user turn in the probe, so the template drops its block.
			expect(probePrompt(t, QA, { enable_thinking })).toBe(
				'<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\nA.<|im_end|>\n<|im_start|>user\n'
			);
			expect(probePrompt(t, earlier, { enable_thinking })).not.toContain('<think>');
		}
		const note = SHIPPED_FAMILIES.find((f) => f.family === 'Qwen3.5')?.note ?? '';
		expect(note).toMatch(/no think block/);
		expect(note).not.toMatch(/keeps an empty think block/);
	});

	it('gpt-oss (20b, 120b), the date line aside', async () => {
		const system =
			'<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2026-11-23\n\nReasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.<|end|>';
		for (const repo of ['openai/gpt-oss-20b', 'openai/gpt-oss-120b']) {
			const t = await copy(repo);
			expect(undated(renderChat(t, QA, { add_generation_prompt: false }))).toBe(
				undated(
					`${system}<|start|>user<|message|>Q?<|end|><|start|>assistant<|channel|>final<|message|>A.<|return|>`
				)
			);
			expect(undated(renderChat(t, Q, { add_generation_prompt: true }))).toBe(
				undated(`${system}<|start|>user<|message|>Q?<|end|><|start|>assistant`)
			);
			expect(probePrompt(t, QA).endsWith('<|end|><|start|>user<|message|>')).toBe(true);
		}
	});

	it('GLM-4.7-Flash', async () => {
		const t = await copy('zai-org/GLM-4.7-Flash');
		for (const enable_thinking of [undefined, true, false]) {
			expect(renderChat(t, QA, { add_generation_prompt: false, enable_thinking })).toBe(
				'[gMASK]<sop><|user|>Q?<|assistant|></think>A.'
			);
		}
		const q = (o: { enable_thinking?: boolean }) =>
			renderChat(t, Q, { add_generation_prompt: true, ...o });
		expect(q({})).toBe('[gMASK]<sop><|user|>Q?<|assistant|><think>');
		expect(q({ enable_thinking: true })).toBe('[gMASK]<sop><|user|>Q?<|assistant|><think>');
		expect(q({ enable_thinking: false })).toBe('[gMASK]<sop><|user|>Q?<|assistant|></think>');
		expect(probePrompt(t, QA)).toBe('[gMASK]<sop><|user|>Q?<|assistant|></think>A.<|user|>');
	});
});

describe('the CLI finds the copies too', () => {
	it('reads a paper family offline, as the app does', async () => {
		const { cliShippedTemplate } = await import('../../../src/cli/shippedTemplates.ts');
		const t = await cliShippedTemplate('zai-org/GLM-4.7-Flash');
		expect(t?.sha256).toBe(index['zai-org/GLM-4.7-Flash'].sha256);
		expect(t?.provenance).toMatch(/^copy of ggml-org\/llama\.cpp .*MIT$/);
	});
});
