/**
 * Set-up's template check: its error belongs to the choice it was made for (another model or
 * source shows none; a rejected file, forgotten by the check, keeps its error), and a running check
 * can be cancelled, which stops its loading (the signal reaches the load) and leaves no error.
 */
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import type { ChatTemplate } from '../../../src/lib/probe/template.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { CHATML } from '../../helpers/runawayTemplates.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

const GPU = { shaderF16: true };
const REPO = { kind: 'repo' as const, repos: ['x/y'] };
const failing = async (): Promise<ChatTemplate> => {
	throw new Error('https://huggingface.co/x/y: Failed to fetch');
};
const chatml = async (): Promise<ChatTemplate> => ({
	source: CHATML,
	bos_token: null,
	eos_token: '<|im_end|>'
});

/** A load that never ends unless its signal aborts, as a stalled fetch or a looping render. */
function stalled() {
	let seen: AbortSignal | undefined;
	const load = (_spec: unknown, signal: AbortSignal) =>
		new Promise<ChatTemplate>((_resolve, reject) => {
			seen = signal;
			signal.addEventListener('abort', () => reject(new AbortError()), { once: true });
		});
	return { load, signal: () => seen };
}

describe('SetupState: the template check', () => {
	it("shows a check's error only while the choice it was made for is the current one", async () => {
		const setup = new SetupState(memoryStorage());
		await setup.checkTemplate(REPO, failing, 'choice-a');
		expect(setup.templateErrorFor('choice-a')).toMatch(/Failed to fetch/);
		expect(setup.templateErrorFor('choice-b')).toBeNull();
		// The start reads the last check's error whatever the choice.
		expect(setup.templateError).toMatch(/Failed to fetch/);
		await setup.checkTemplate({ kind: 'repo', repos: ['a/b'] }, chatml, 'choice-b');
		expect(setup.templateErrorFor('choice-a')).toBeNull();
		expect(setup.templateErrorFor('choice-b')).toBeNull();
	});

	it("asks a server for its template again at each check, and keeps a repo's", async () => {
		// Before: a server restarted with another model kept showing its old /props answer.
		const setup = new SetupState(memoryStorage());
		const server = { kind: 'server' as const, baseUrl: 'http://127.0.0.1:8080', repos: [] };
		let loads = 0;
		const counted = async () => (loads++, chatml());
		await setup.checkTemplate(server, counted);
		await setup.checkTemplate(server, counted);
		expect(loads).toBe(2);
		await setup.checkTemplate(REPO, counted);
		await setup.checkTemplate(REPO, counted);
		expect(loads).toBe(3);
	});

	it('cancels a running check: the load sees the abort, and no error or template is left', async () => {
		const setup = new SetupState(memoryStorage());
		const s = stalled();
		const check = setup.checkTemplate(REPO, s.load, 'choice-a');
		expect(setup.templateBusy).toBe(true);
		setup.cancelTemplateCheck();
		await expect(check).resolves.toBeNull();
		expect(s.signal()?.aborted).toBe(true);
		expect(setup.templateBusy).toBe(false);
		expect(setup.templateError).toBeNull();
		expect(setup.template).toBeNull();
	});

	it('a new check stops the one still running, and only the new one decides', async () => {
		const setup = new SetupState(memoryStorage());
		const s = stalled();
		const first = setup.checkTemplate(REPO, s.load, 'choice-a');
		const second = setup.checkTemplate({ kind: 'repo', repos: ['a/b'] }, chatml, 'choice-b');
		await expect(first).resolves.toBeNull();
		expect(s.signal()?.aborted).toBe(true);
		expect((await second)?.header).toBe('<|im_start|>user\n');
		expect(setup.templateBusy).toBe(false);
		expect(setup.templateErrorFor('choice-b')).toBeNull();
	});
});

describe('EngineSettings.templateChoice', () => {
	it('changes with the engine, the model and the source, not with a file forgotten by its check', () => {
		const s = new EngineSettings(memoryStorage());
		s.models.webgpu.generatorKey.current = 'qwen3-0.6b';
		s.templateKind.current = 'file';
		const noFile = s.templateChoice(GPU);
		s.templateFile = { name: 'notes.jinja', text: '{% for m in messages %}' };
		expect(s.templateChoice(GPU)).toBe(noFile);

		s.models.webgpu.generatorKey.current = 'llama-3.2-1b-instruct';
		expect(s.templateChoice(GPU)).not.toBe(noFile);
		s.models.webgpu.generatorKey.current = 'qwen3-0.6b';
		s.templateKind.current = 'repo';
		const repo = s.templateChoice(GPU);
		expect(repo).not.toBe(noFile);
		s.templateRepo.current = 'Qwen/Qwen3-0.6B';
		expect(s.templateChoice(GPU)).not.toBe(repo);
		s.engine.current = 'server';
		expect(s.templateChoice(GPU)).not.toBe(repo);
	});
});
