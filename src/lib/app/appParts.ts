/**
 * The parts of the app context (context.ts) as the browser makes them: the services over IndexedDB
 * and the real engines, the settings, the tab's state. Loaded beside the first view, not with the
 * page's first script: it brings Dexie, the probe core and the chat-template renderer.
 */
import { Playground } from '../state/playground.svelte.ts';
import { composeAppContext, type AppContext, type AppDefaults, type AppParts } from './context.ts';
import { SETUP_DEFAULTS } from './setupParts.ts';

export const APP_DEFAULTS: AppDefaults = {
	...SETUP_DEFAULTS,
	playground: () => new Playground()
};

/** The app with real services and state, made lazily; `parts` replace any of them. */
export function createAppContext(parts: AppParts = {}): AppContext {
	return composeAppContext(() => APP_DEFAULTS, parts);
}
