/**
 * The app shell's routing: each navigation mounts the next view once, with its own id, and never
 * re-mounts the view being left (which would re-run its reads while the next view's chunk loads).
 */
import { cleanup, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import App from '../../../src/App.svelte';
import { contexts, loaded, mounts } from './mounts.ts';

/** A view module whose component is ViewStub told the view's name (components are functions). */
function stubView(view: string) {
	return async () => {
		loaded.push(view);
		const { default: ViewStub } = await import('./ViewStub.svelte');
		const stub = ViewStub as unknown as (anchor: unknown, props: object) => unknown;
		return {
			default: (anchor: unknown, props: { id?: string }) =>
				stub(anchor, {
					view,
					get id() {
						return props.id;
					}
				})
		};
	};
}

vi.mock('../../../src/views/setup/SetupView.svelte', stubView('setup'));
vi.mock('../../../src/views/run/RunView.svelte', stubView('run'));
vi.mock('../../../src/views/results/ResultsView.svelte', stubView('results'));
vi.mock('../../../src/views/runs/RunsView.svelte', stubView('runs'));
vi.mock('../../../src/views/playground/PlaygroundView.svelte', stubView('playground'));
vi.mock('../../../src/views/annotate/AnnotateView.svelte', stubView('annotate'));

const FIRST_LOAD = { timeout: 15_000 };

function go(hash: string): void {
	location.hash = hash;
	window.dispatchEvent(new HashChangeEvent('hashchange'));
}

beforeEach(() => {
	mounts.length = 0;
	contexts.length = 0;
	location.hash = '#/runs';
});
afterEach(() => cleanup());

describe('App routing', () => {
	// First: modules load once per file, and this test is about the first load of 'results'.
	it(
		'fetches the chunk of the view the runs list links to, without mounting it',
		async () => {
			render(App);
			// The first load transforms the view's and the parts' modules: slow on a busy machine.
			await waitFor(() => expect(screen.getByTestId('view').textContent).toBe('runs:'), FIRST_LOAD);
			await waitFor(() => expect(loaded).toContain('results'), { timeout: 3_000 });
			expect(mounts).toEqual(['runs:']);
		},
		FIRST_LOAD.timeout * 2
	);

	it(
		'mounts each view once per navigation, with its own id',
		async () => {
			render(App);
			// The first load transforms the view's and the parts' modules: slow on a busy machine.
			await waitFor(() => expect(screen.getByTestId('view').textContent).toBe('runs:'), FIRST_LOAD);
			go('#/results/run-1');
			await waitFor(() => expect(screen.getByTestId('view').textContent).toBe('results:run-1'));
			go('#/results/run-2');
			await waitFor(() => expect(screen.getByTestId('view').textContent).toBe('results:run-2'));
			go('#/runs');
			await waitFor(() => expect(screen.getByTestId('view').textContent).toBe('runs:'));
			expect(mounts).toEqual(['runs:', 'results:run-1', 'results:run-2', 'runs:']);
		},
		FIRST_LOAD.timeout * 2
	);

	it('hands every view the one app context it made at the root', async () => {
		render(App);
		// The first load transforms the view's and the parts' modules: slow on a busy machine.
		await waitFor(() => expect(screen.getByTestId('view').textContent).toBe('runs:'), FIRST_LOAD);
		go('#/results/run-1');
		await waitFor(() => expect(screen.getByTestId('view').textContent).toBe('results:run-1'));
		expect(contexts).toHaveLength(2);
		expect(contexts[1]).toBe(contexts[0]);
		// Reading the context made no database and no engine worker.
		const app = contexts[0] as { services: { hasDevice(kind: string): boolean } };
		expect(app.services.hasDevice('webgpu')).toBe(false);
	});
});
