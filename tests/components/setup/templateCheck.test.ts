/**
 * Set-up's template check, in the whole view: a failed check's error goes when the model or the
 * template source changes, a file the check rejects is forgotten with its error still shown, and
 * a check that hangs (a URL that never answers) can be cancelled, which aborts its request.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import SetupView from '../../../src/views/setup/SetupView.svelte';
import { probeGpu } from '../../../src/lib/engines/webgpu/gpu.ts';
import { Environment } from '../../../src/lib/state/environment.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { renderWithServices, testServices } from '../renderWithServices.ts';

const TEMPLATE_URL = 'http://127.0.0.1:9/template.jinja';

/** fetch as the browser's: 404 for a missing file; a hang, until aborted, for /stall. */
function fakeFetch() {
	const signals: AbortSignal[] = [];
	const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
		const url = String(input);
		if (!url.includes('/stall')) return new Response('Not Found', { status: 404 });
		const signal = init?.signal ?? undefined;
		if (signal) signals.push(signal);
		return new Promise<Response>((_resolve, reject) => {
			signal?.addEventListener('abort', () =>
				reject(new DOMException('The operation was aborted.', 'AbortError'))
			);
		});
	}) as typeof fetch;
	return { fn, signals };
}

async function renderSetup(fetchFn: typeof fetch) {
	const settings = new EngineSettings(localStorage);
	settings.engine.current = 'server';
	settings.models.server.modelId.current = 'model-a';
	renderWithServices(
		SetupView,
		{ params: {} },
		{
			settings,
			environment: new Environment({ probeGpu: () => probeGpu({}) }),
			services: () => testServices(undefined, { fetch: fetchFn })
		}
	);
	await screen.findByTestId('check-template');
	return settings;
}

const status = () => screen.getByTestId('template-status').textContent ?? '';
const input = (id: string) => screen.getByTestId(id) as HTMLInputElement;

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe("set-up's template check", () => {
	it("drops a failed check's error when the template source or the model changes", async () => {
		const settings = await renderSetup(fakeFetch().fn);
		await fireEvent.click(input('template-kind-url'));
		await fireEvent.input(input('template-url'), { target: { value: TEMPLATE_URL } });
		await fireEvent.click(screen.getByTestId('check-template'));
		await waitFor(() => expect(status()).toMatch(/HTTP 404/));

		await fireEvent.input(input('template-url'), { target: { value: `${TEMPLATE_URL}x` } });
		expect(status()).not.toMatch(/HTTP 404/);
		await fireEvent.input(input('template-url'), { target: { value: TEMPLATE_URL } });
		await fireEvent.click(screen.getByTestId('check-template'));
		await waitFor(() => expect(status()).toMatch(/HTTP 404/));
		settings.models.server.modelId.current = 'model-b';
		await waitFor(() => expect(status()).not.toMatch(/HTTP 404/));
	});

	it('forgets a file that is not a template and still says why', async () => {
		const settings = await renderSetup(fakeFetch().fn);
		await fireEvent.click(input('template-kind-file'));
		const file = new File(['{% for m in messages %}{{ m.content }'], 'notes.jinja');
		await fireEvent.change(input('template-file'), { target: { files: [file] } });
		await waitFor(() => expect(settings.templateFile).toBeNull());
		await waitFor(() => expect(screen.queryByTestId('template-file-remembered')).toBeNull());
		expect(status()).toMatch(/Chat template does not parse/);
		expect(screen.getByTestId('template-status').querySelector('.error')).not.toBeNull();
	});

	it('cancels a check that hangs: its request is aborted and no error is left', async () => {
		const f = fakeFetch();
		await renderSetup(f.fn);
		await fireEvent.click(input('template-kind-url'));
		await fireEvent.input(input('template-url'), {
			target: { value: 'http://127.0.0.1:9/stall.jinja' }
		});
		await fireEvent.click(screen.getByTestId('check-template'));
		const cancel = await screen.findByTestId('cancel-template-check');
		expect(screen.getByTestId('check-template').textContent).toMatch(/Loading/);
		await waitFor(() => expect(f.signals).toHaveLength(1));
		await fireEvent.click(cancel);
		expect(f.signals[0].aborted).toBe(true);
		await waitFor(() => expect(screen.getByTestId('check-template').textContent).toMatch(/Check/));
		expect(screen.queryByTestId('cancel-template-check')).toBeNull();
		expect(screen.getByTestId('template-status').querySelector('.error')).toBeNull();
	});
});
