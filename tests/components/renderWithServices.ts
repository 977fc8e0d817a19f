/**
 * Render a view the way App.svelte does: under an app context (services and the tab's state), here
 * made for the test. Each call is a new page load: fresh settings read from localStorage, fresh
 * state, and services over the database the test gives. The device engines are fakes unless the
 * test passes its own, since asking web-llm (or wllama) about cached models would start a worker.
 */
import { render } from '@testing-library/svelte';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Component } from 'svelte';
import { appContextMap, type AppContext, type AppParts } from '../../src/lib/app/context.ts';
import { createAppContext } from '../../src/lib/app/appParts.ts';
import { createAppServices, type AppServiceDeps } from '../../src/lib/app/services.ts';
import type { DeviceEngine } from '../../src/lib/app/deviceEngine.ts';
import { createDB, type ProbeDB } from '../../src/lib/db/schema.ts';
// The app loads its stores with the first store call (services.ts); a view's test can end before
// that load does, and a module loaded after teardown is an error. Loaded up front here instead.
import '../../src/lib/db/stores.ts';
import type { AdapterLike } from '../../src/lib/engines/webgpu/gpu.ts';

/** A WebGPU adapter without shader-f16. */
export const ADAPTER: AdapterLike = {
	features: new Set<string>(),
	limits: {},
	info: { vendor: 'acme', architecture: 'x1', device: '', description: '' }
};

/** A device engine that has nothing cached and must not be asked to generate. */
export function fakeDeviceEngine(version = 'test'): DeviceEngine {
	return {
		engine: {} as DeviceEngine['engine'],
		version,
		isCached: async () => false,
		deleteCached: async () => {},
		unload: async () => {},
		dispose: () => {}
	};
}

/** A private in-memory database, as a new browser profile would have. */
export function memoryDb(): ProbeDB {
	return createDB(`view-test-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
}

/** Services over `db` (default: an empty private one) with fake device engines. */
export function testServices(db?: ProbeDB, deps: AppServiceDeps = {}) {
	return createAppServices({
		openDb: () => db ?? memoryDb(),
		...deps,
		makeDevice: {
			webgpu: () => fakeDeviceEngine(),
			cpu: () => fakeDeviceEngine('wllama-test'),
			...deps.makeDevice
		}
	});
}

export interface RenderOptions extends AppParts {
	/** The database the services use (default: an empty private one, made on first use). */
	db?: ProbeDB;
}

/** Render `View` with `props` under a fresh app context; returns the render result and the app. */
export function renderWithServices<Props extends Record<string, unknown>>(
	View: Component<Props>,
	props: Props,
	{ db, ...parts }: RenderOptions = {}
): ReturnType<typeof render<Component<Props>>> & { app: AppContext } {
	const app = createAppContext({ services: () => testServices(db), ...parts });
	// Svelte's MountOptions cannot resolve its props condition for a generic Props: cast once here.
	const options = { props, context: appContextMap(app) } as unknown as Parameters<
		typeof render<Component<Props>>
	>[1];
	const result = render(View, options);
	return Object.assign(result, { app });
}
