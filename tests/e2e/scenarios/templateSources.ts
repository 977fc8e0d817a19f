/**
 * The set-up view reads a chat template from each source a person may give offline: a bare .jinja
 * by URL, the same .jinja uploaded as a file, and a tokenizer_config.json by URL. Each check must
 * show Qwen's ChatML user header, the thing the probe appends.
 */
import { need, openView, setControl, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { templateSource, type TemplateFrom } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';

const SOURCES: TemplateFrom[] = ['jinja-url', 'jinja-file', 'config-url'];
const V = 'setup';

export const templateSources: Scenario<E2EContext> = {
	id: 'template-sources',
	title: 'chat template from a .jinja URL, a .jinja file and a tokenizer_config.json URL',
	timeoutMs: 60_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		await openView(page, ctx.app.url, '#/setup');
		await setControl(await need(page, V, 'engine-server'), true);
		const failures: string[] = [];
		for (const from of SOURCES) {
			const t = templateSource(ctx, from);
			if ('url' in t) {
				await setControl(await need(page, V, 'template-kind-url'), true);
				await setControl(await need(page, V, 'template-url'), t.url);
			} else {
				await setControl(await need(page, V, 'template-kind-file'), true);
				await (await need(page, V, 'template-file')).setInputFiles(t.file);
			}
			await setControl(await need(page, V, 'template-eos'), '<|im_end|>');
			await (await need(page, V, 'check-template')).click();
			const status = await need(page, V, 'template-status');
			const ok = await status
				.getByText('<|im_start|>user')
				.waitFor({ timeout: UI_TIMEOUT_MS })
				.then(
					() => true,
					() => false
				);
			if (!ok) failures.push(`${from}: "${(await status.innerText()).trim()}"`);
		}
		check(
			failures.length === 0,
			`template check did not show the ChatML user header for ${failures.join('; ')}`
		);
	}
};
