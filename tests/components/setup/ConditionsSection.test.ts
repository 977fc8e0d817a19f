/**
 * The thinking box starts at the generator's template default (Qwen3.5 thinks by default), says
 * what that default is, and a change is kept in the form; templates that ignore enable_thinking
 * show no box at all. The user header starts at the family's rule (gpt-oss: at the role, as the
 * paper) with its reason shown; gpt-oss alone offers a reasoning effort.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/lib/setup/runForm.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import ConditionsSection from '../../../src/views/setup/ConditionsSection.svelte';
import { memoryStorage } from '../../helpers/memoryStorage.ts';
import type { TemplateMarkup } from '../../../src/lib/probe/markup.ts';

afterEach(cleanup);

const box = () => screen.getByTestId('thinking') as HTMLInputElement;
const label = () => box().closest('label')?.textContent?.replace(/\s+/g, ' ') ?? '';
const RUN = { run_id: 'r', dataset: 'demo', items: [], generator: { id: 'g' }, judge: { id: 'j' } };

describe('ConditionsSection thinking', () => {
	it("starts at a template's default of on, and a click turns it off for the run", async () => {
		const setup = new SetupState(memoryStorage());
		render(ConditionsSection, { setup, thinkingDefault: true });
		expect(box().checked).toBe(true);
		expect(label()).toContain("the template's default is on");
		expect(buildConfig(setup.valuesNow, { ...RUN, thinking_default: true }).thinking).toBe(true);
		await fireEvent.click(box());
		expect(box().checked).toBe(false);
		expect(setup.valuesNow.thinking).toBe(false);
		expect(label()).toContain('changed here');
		expect(buildConfig(setup.valuesNow, { ...RUN, thinking_default: true }).thinking).toBe(false);
	});

	it('starts unchecked where the template thinks only when asked', () => {
		render(ConditionsSection, { setup: new SetupState(memoryStorage()), thinkingDefault: false });
		expect(box().checked).toBe(false);
		expect(label()).toContain("the template's default is off");
	});

	it('shows no thinking box for a template that ignores enable_thinking', () => {
		render(ConditionsSection, { setup: new SetupState(memoryStorage()), thinkingDefault: null });
		expect(screen.queryByTestId('thinking')).toBeNull();
	});
});

describe('ConditionsSection user header and reasoning effort', () => {
	/** What templateMarkup reads off gpt-oss's and Qwen3.5's templates (tests/unit/probe/markup). */
	const GPT_OSS: TemplateMarkup = {
		headerDefault: 'role',
		headerReason: 'gpt-oss (harmony): the header stops at "<|start|>user", …',
		headers: { template: '<|start|>user<|message|>', role: '<|start|>user' },
		effortDefault: 'medium'
	};
	const QWEN35: TemplateMarkup = {
		headerDefault: 'template',
		headerReason: 'the whole user header the template writes, …',
		headers: { template: '<|im_start|>user\n', role: '<|im_start|>user' },
		effortDefault: null
	};
	const select = (id: string) => screen.getByTestId(id) as HTMLSelectElement;

	it("starts gpt-oss at the paper's header, says why, and records a change", async () => {
		const setup = new SetupState(memoryStorage());
		const markup = GPT_OSS;
		render(ConditionsSection, { setup, thinkingDefault: null, markup });
		expect(select('user-header').value).toBe('role');
		expect(select('user-header').selectedOptions[0].textContent).toContain('<|start|>user');
		expect(screen.getByTestId('user-header-reason').textContent).toContain('the header stops');
		const run = { ...RUN, thinking_default: null, user_header_default: markup.headerDefault };
		const effort = { reasoning_effort_default: markup.effortDefault };
		expect(buildConfig(setup.valuesNow, { ...run, ...effort })).toMatchObject({
			user_header: 'role',
			reasoning_effort: 'medium'
		});
		await fireEvent.change(select('user-header'), { target: { value: 'template' } });
		await fireEvent.change(select('reasoning-effort'), { target: { value: 'high' } });
		expect(screen.getByTestId('user-header-reason').textContent).toContain('Changed here');
		expect(buildConfig(setup.valuesNow, { ...run, ...effort })).toMatchObject({
			user_header: 'template',
			reasoning_effort: 'high'
		});
	});

	it('offers no reasoning effort, and the whole header by default, for other families', () => {
		const markup = QWEN35;
		render(ConditionsSection, {
			setup: new SetupState(memoryStorage()),
			thinkingDefault: true,
			markup
		});
		expect(select('user-header').value).toBe('template');
		expect(screen.queryByTestId('reasoning-effort')).toBeNull();
	});
});

describe('ConditionsSection labelling', () => {
	it('says what rules-only labelling can and cannot tell when it is picked', async () => {
		render(ConditionsSection, { setup: new SetupState(memoryStorage()), thinkingDefault: null });
		const tells = () => screen.getByTestId('judge-mode-tells').textContent ?? '';
		expect(tells()).toContain('LLM judge labels every other turn');
		await fireEvent.change(screen.getByTestId('judge-mode'), { target: { value: 'rules' } });
		expect(tells()).toContain('stays undecided');
		expect(tells()).toContain('out of the follow-up rate');
		expect(tells()).toContain('no rule ever calls a turn genuine');
	});
});

describe('ConditionsSection answer limit', () => {
	it('says a server that does not report its context window does not, and keeps the typed limit', () => {
		render(ConditionsSection, {
			setup: new SetupState(memoryStorage()),
			thinkingDefault: null,
			server: true,
			generatorWindow: { state: 'not reported' }
		});
		const note = screen.getByTestId('answer-limit').textContent?.replace(/\s+/g, ' ') ?? '';
		expect(note).toContain('not reported by this server');
		expect(note).toContain('answers may use 1,024 tokens');
	});
});

describe('ConditionsSection perturbations', () => {
	it("offers the review's controls beside none, and the ticked ones reach the run's config", async () => {
		const setup = new SetupState(memoryStorage());
		render(ConditionsSection, { setup, thinkingDefault: null });
		for (const p of ['neutral', 'contradict', 'header_only']) {
			const tick = screen.getByTestId(`perturbation-${p}`) as HTMLInputElement;
			expect(tick.checked).toBe(false);
			expect(tick.closest('label')?.title).toMatch(/a review of the paper/);
		}
		await fireEvent.click(screen.getByTestId('perturbation-header_only'));
		await fireEvent.click(screen.getByTestId('perturbation-neutral'));
		await fireEvent.click(screen.getByTestId('perturbation-contradict'));
		// Ticked out of order, kept in the one order tables and charts use.
		expect(buildConfig(setup.valuesNow, { ...RUN, thinking_default: null }).perturbations).toEqual([
			'none',
			'neutral',
			'contradict',
			'header_only'
		]);
	});
});
