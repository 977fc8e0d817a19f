/**
 * The lint rules that keep each layer to its own dependencies fail on a deliberate violation: the
 * pure core and the Node CLI never reach Svelte, Dexie, the DOM or the app's state and views, and
 * only the engine worker imports web-llm at run time.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: REPO });

async function rulesFired(code: string, filePath: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: `${REPO}${filePath}` });
	return result.messages.map((m) => m.ruleId ?? m.message);
}

describe('layer lint guards', { timeout: 60_000 }, () => {
	it.each([
		["import Dexie from 'dexie';\nexport const d = Dexie;\n", 'src/cli/violation.ts'],
		["import { mount } from 'svelte';\nexport const m = mount;\n", 'src/cli/violation.ts'],
		[
			"import { openDb } from '../lib/db/schema.ts';\nexport const o = openDb;\n",
			'src/cli/violation.ts'
		],
		["import { Chart } from 'chart.js';\nexport const c = Chart;\n", 'src/lib/probe/violation.ts'],
		[
			"import { settings } from '../state/settings.svelte.ts';\nexport const s = settings;\n",
			'src/lib/probe/violation.ts'
		]
	])('%j in %s is an error', async (code, file) => {
		expect(await rulesFired(code, file)).toContain('no-restricted-imports');
	});

	it.each(['src/cli/violation.ts', 'src/lib/probe/violation.ts'])(
		'the DOM is off limits in %s',
		async (file) => {
			expect(await rulesFired('export const n = document.title;\n', file)).toContain(
				'no-restricted-globals'
			);
		}
	);

	it('only the worker imports web-llm at run time', async () => {
		const code =
			"import { CreateMLCEngine } from '@mlc-ai/web-llm';\nexport const c = CreateMLCEngine;\n";
		expect(await rulesFired(code, 'src/lib/app/violation.ts')).toContain(
			'@typescript-eslint/no-restricted-imports'
		);
		expect(await rulesFired(code, 'src/workers/violation.ts')).toEqual([]);
	});

	it.each([
		["import { toWireError } from '../../webgpu/errors.ts';\n", 'src/lib/engines/cpu/worker/x.ts'],
		["import type { CpuLoadMessage } from '../cpu/protocol.ts';\n", 'src/lib/engines/webgpu/x.ts'],
		["import { SseParser } from '../server/sse.ts';\n", 'src/lib/engines/cpu/x.ts'],
		["import type { LoadMessage } from '../webgpu/protocol.ts';\n", 'src/lib/engines/worker/x.ts'],
		["import type { AppConfig } from '@mlc-ai/web-llm';\n", 'src/lib/engines/worker/x.ts']
	])(
		'one engine never reaches into another, nor the shared worker into any: %j in %s',
		async (code, file) => {
			expect(await rulesFired(code, file)).toContain('no-restricted-imports');
		}
	);

	it('engines import the shared worker plumbing freely', async () => {
		const code =
			"import { toWireError } from '../../worker/errors.ts';\nexport const t = toWireError;\n";
		expect(await rulesFired(code, 'src/lib/engines/cpu/worker/x.ts')).toEqual([]);
		expect(await rulesFired(code, 'src/lib/engines/webgpu/worker/x.ts')).toEqual([]);
	});

	it('keeps Dexie inside src/lib/db: elsewhere db modules give types and error classes only', async () => {
		const value =
			"import { DexieRunStore } from '../db/runs.ts';\nexport const s = DexieRunStore;\n";
		expect(await rulesFired(value, 'src/lib/state/violation.ts')).toContain(
			'@typescript-eslint/no-restricted-imports'
		);
		const alias = "import { createDB } from '$lib/db/schema';\nexport const c = createDB;\n";
		expect(await rulesFired(alias, 'src/views/violation.ts')).toContain(
			'@typescript-eslint/no-restricted-imports'
		);
		const types =
			"import type { DexieRunStore } from '../db/runs.ts';\nexport type S = DexieRunStore;\n";
		expect(await rulesFired(types, 'src/lib/state/violation.ts')).toEqual([]);
		const errors =
			"import { RunExistsError } from '../db/errors.ts';\nexport const e = RunExistsError;\n";
		expect(await rulesFired(errors, 'src/lib/state/violation.ts')).toEqual([]);
		// The composition root wires the stores; db modules use each other.
		expect(await rulesFired(value, 'src/lib/app/services.ts')).toEqual([]);
		expect(await rulesFired(value, 'src/lib/db/violation.ts')).toEqual([]);
	});

	it('lets the CLI use the core, the server engine and node: modules', async () => {
		const code = [
			"import { readFileSync } from 'node:fs';",
			"import { runProbe } from '../lib/probe/pipeline.ts';",
			"import { OpenAIEngine } from '../lib/engines/server/client.ts';",
			'export const x = [readFileSync, runProbe, OpenAIEngine];',
			''
		].join('\n');
		expect(await rulesFired(code, 'src/cli/violation.ts')).toEqual([]);
	});
});
