/**
 * GPQA in set-up: choosing it asks for a Hugging Face token, says why GPQA is unavailable without
 * one and how to get access, states the option shuffle, and keeps the token in memory unless
 * "remember" is ticked.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import DatasetSection from '../../../src/views/setup/DatasetSection.svelte';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

afterEach(cleanup);

const TOKEN = 'hf_madeUpTokenForTheTest000';

async function choose(value: string) {
	await fireEvent.change(screen.getByTestId('dataset-select'), { target: { value } });
}

describe('DatasetSection GPQA', () => {
	it('offers GPQA Diamond and Main; without a token says why it is unavailable and how to get access', async () => {
		const store = memoryStorage();
		const settings = new EngineSettings(store);
		const setup = new SetupState(memoryStorage());
		render(DatasetSection, { setup, settings });
		expect(screen.queryByTestId('hf-token')).toBeNull();
		await choose('gpqa_diamond');
		expect(screen.getByTestId('hf-token')).toBeTruthy();
		const note = screen.getByTestId('hf-token-needed').textContent ?? '';
		expect(note).toMatch(/GPQA is unavailable without a token/);
		expect(note).toMatch(/accept the terms/);
		expect(note).toMatch(/import GPQA yourself as a multiple-choice file/);
		const links = [...screen.getByTestId('hf-token-needed').querySelectorAll('a')].map((a) =>
			a.getAttribute('href')
		);
		expect(links).toEqual([
			'https://huggingface.co/datasets/Idavidrein/gpqa',
			'https://huggingface.co/settings/tokens'
		]);
		expect(screen.getByTestId('dataset-note').textContent).toMatch(/shuffled per item/);
		await choose('gpqa_main');
		expect(screen.getByTestId('hf-token-needed')).toBeTruthy();
	});

	it('keeps the typed token in memory only, until "remember" is ticked; unticking erases it', async () => {
		const store = memoryStorage();
		const settings = new EngineSettings(store);
		render(DatasetSection, { setup: new SetupState(memoryStorage()), settings });
		await choose('gpqa_diamond');
		await fireEvent.input(screen.getByTestId('hf-token'), { target: { value: TOKEN } });
		expect(settings.hfToken).toBe(TOKEN);
		expect(screen.queryByTestId('hf-token-needed')).toBeNull();
		expect([...store.data.values()].join('\n')).not.toContain(TOKEN);
		// A new page load forgets it.
		expect(new EngineSettings(store).hfToken).toBe('');

		await fireEvent.click(screen.getByTestId('remember-hf-token'));
		expect([...store.data.values()].join('\n')).toContain(TOKEN);
		expect(new EngineSettings(store).hfToken).toBe(TOKEN);

		await fireEvent.click(screen.getByTestId('remember-hf-token'));
		expect([...store.data.values()].join('\n')).not.toContain(TOKEN);
		expect(new EngineSettings(store).hfToken).toBe('');
		// The server API key is a separate secret: the HF token never lands in it.
		expect(settings.apiKey).toBe('');
	});

	it('says at once when the pasted token has whitespace inside it', async () => {
		const settings = new EngineSettings(memoryStorage());
		render(DatasetSection, { setup: new SetupState(memoryStorage()), settings });
		await choose('gpqa_diamond');
		await fireEvent.input(screen.getByTestId('hf-token'), { target: { value: 'hf_abc def' } });
		expect(screen.getByTestId('hf-token-problem').textContent).toMatch(/space or line break/);
		// Spaces around it are fine: they are trimmed before it is sent.
		await fireEvent.input(screen.getByTestId('hf-token'), { target: { value: ` ${TOKEN}\n` } });
		expect(screen.queryByTestId('hf-token-problem')).toBeNull();
	});

	it('IFBench says which types need NLTK data from GitHub, unscored without it; no token asked', async () => {
		render(DatasetSection, {
			setup: new SetupState(memoryStorage()),
			settings: new EngineSettings(memoryStorage())
		});
		await choose('ifbench');
		const note = screen.getByTestId('dataset-note').textContent ?? '';
		expect(note).toMatch(/checks all 58 of IFBench's instruction types/);
		expect(note).toMatch(/downloads from raw\.githubusercontent\.com first/);
		expect(note).toMatch(/unscored, not counted wrong: .*words:odd_even_syllables/);
		expect(screen.queryByTestId('hf-token')).toBeNull();
	});
});
