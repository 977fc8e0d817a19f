/**
 * The thinking box starts at the generator's template default (Qwen3.5 thinks by default), says
 * what that default is, and a change is kept in the form; templates that ignore enable_thinking
 * show no box at all.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../../src/lib/setup/runForm.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import ConditionsSection from '../../../src/views/setup/ConditionsSection.svelte';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

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
