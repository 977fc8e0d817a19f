/**
 * The browser app's services (fake IndexedDB, localStorage in memory) against a mock
 * OpenAI-compatible server serving `models` (one, `gen`, unless told): what the launch and resume
 * tests start runs with. Call inside a describe: the server starts before its tests and closes
 * after them.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, vi } from 'vitest';
import { createAppServices } from '../../src/lib/app/services.ts';
import { hashedFixtureTemplate } from './fixtures.ts';
import { memoryStorage } from './memoryStorage.ts';
import { startMockOpenAI, type MockOpenAI } from './mockOpenAI.ts';

export function appAgainstMock(models: string[] = ['gen']) {
	let server: MockOpenAI | undefined;
	beforeAll(async () => {
		server = await startMockOpenAI({ models });
		vi.stubGlobal('localStorage', memoryStorage());
	});
	afterAll(async () => {
		vi.unstubAllGlobals();
		await server?.close();
	});
	return {
		/** The running server (inside a test or a hook). */
		mock(): MockOpenAI {
			if (!server) throw new Error('the mock server starts in beforeAll: ask inside a test');
			return server;
		},
		services: createAppServices(),
		template: hashedFixtureTemplate
	};
}
