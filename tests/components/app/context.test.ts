/**
 * The app context: each part is made on first read, once; a part the caller gives replaces the
 * default; and a component outside a root that provided the context fails with a clear message
 * instead of silently making a second set of services.
 */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appContextMap, composeAppContext } from '../../../src/lib/app/context.ts';
import { createAppContext } from '../../../src/lib/app/appParts.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { testServices } from '../renderWithServices.ts';
import UsesSettings from './UsesSettings.svelte';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

afterEach(cleanup);

describe('createAppContext', () => {
	it('makes each part on first read and keeps it', () => {
		const makeServices = vi.fn(() => testServices());
		const app = createAppContext({ services: makeServices });
		expect(makeServices).not.toHaveBeenCalled();
		const services = app.services;
		expect(app.services).toBe(services);
		expect(makeServices).toHaveBeenCalledTimes(1);
		expect(app.runner).toBe(app.runner);
		expect(app.setup).toBe(app.setup);
	});

	it("gives the device benchmark the context's own benchmark store", () => {
		const services = testServices();
		const store = vi.spyOn(services, 'benchmarkStore');
		const app = createAppContext({ services });
		void app.deviceBench;
		expect(store).toHaveBeenCalledTimes(1);
	});

	it('renders a component with the settings it was given', () => {
		const settings = new EngineSettings(memoryStorage());
		settings.engine.current = 'server';
		render(UsesSettings, { context: appContextMap(createAppContext({ settings })) });
		expect(screen.getByTestId('engine').textContent).toBe('server');
	});

	it('reads the defaults only when a part needs one (the root provides before they load)', () => {
		const settings = new EngineSettings(memoryStorage());
		const defaults = vi.fn(() => {
			throw new Error('The app is still loading.');
		});
		const app = composeAppContext(defaults, { settings });
		expect(app.settings).toBe(settings);
		expect(defaults).not.toHaveBeenCalled();
		expect(() => app.runner).toThrow(/still loading/);
	});

	it('fails clearly when nothing provided the context', () => {
		vi.spyOn(console, 'error').mockImplementation(() => {});
		expect(() => render(UsesSettings)).toThrow(/No app in context/);
	});
});
