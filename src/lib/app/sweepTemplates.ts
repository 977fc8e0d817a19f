/**
 * A sweep's further models: each one's own chat template and context window, read as a single run
 * of it would read them, or why it is left out. The start's template step (launch.ts) asks this.
 */
import type { SweepGenerator } from '../engines/provider.ts';
import { errorText } from '../errors/describe.ts';
import { servedTemplateSpec } from '../setup/sweepPlan.ts';
import type { SkippedModel } from '../setup/sweeps.ts';
import { readTemplateCheck, type TemplateCheck } from '../setup/templateCheck.ts';
import type { NewRunRequest } from './launch.ts';

/**
 * A sweep's further model: its own chat template and context window, or why it is left out. On
 * this device the catalog's repo or the file's own; on a server what its served name names
 * (servedTemplateSpec), and the context window the server states for it.
 * @throws AbortError when the start is stopped.
 */
export async function ownTemplate(
	r: Pick<NewRunRequest, 'services' | 'settings' | 'gpu' | 'signal'>,
	generator: string
): Promise<{ check: TemplateCheck; contextWindow?: number } | SkippedModel> {
	const { provider, chosen } = r.settings;
	const found: Pick<SweepGenerator, 'template' | 'context_window'> | null | undefined =
		provider.onDevice
			? chosen.sweepGenerator?.(generator, r.gpu)
			: { template: servedTemplateSpec(generator) };
	if (!found?.template) {
		return {
			model: generator,
			reason: provider.onDevice
				? 'not a model this engine loads, or no chat template known'
				: 'its served name is not a Hugging Face repo, so its chat template is unknown (run it alone with its template chosen)'
		};
	}
	try {
		const template = await r.services.appTemplate(found.template, r.signal);
		const ask = provider.askContextWindow;
		const told =
			found.context_window === undefined && ask
				? await ask(r.services, r.settings.connection(), generator, r.signal)
				: undefined;
		return {
			check: await readTemplateCheck(JSON.stringify(found.template), template),
			contextWindow: found.context_window ?? told?.tokens
		};
	} catch (err) {
		if (r.signal.aborted) throw err;
		return { model: generator, reason: `its chat template could not be read: ${errorText(err)}` };
	}
}
