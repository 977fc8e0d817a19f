/**
 * Hugging Face blocked, and a class's model mirror on a second local port: the teacher's kit is
 * made with `user-turn-probe mirror` from a stand-in Hub (the suite's tiny real GGUF under the
 * catalog's path of the classroom model), then served as a static site. A student opens
 * `#/?models=<mirror>`: the device line says where models come from, the classroom preset shows
 * the size the mirror's index.json lists before anything downloads, and the preset's run on the
 * CPU engine completes from the mirror, with no request to huggingface.co answered and the run
 * recording the catalog model's own id. The same mirror missing its file gives one plain
 * message naming that file, in set-up and again on Start, never the "Hugging Face is blocked" one.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { mirrorCommand, parseMirrorArgs } from '../../../src/cli/mirror.ts';
import { DEFAULT_CPU_GENERATOR, findGguf, ggufUrl } from '../../../src/lib/engines/cpu/catalog.ts';
import { serveHub, type HubServer } from '../../helpers/hubServer.ts';
import { buildTinyModel } from '../../helpers/tinyModel/index.ts';
import { need, openView, startRun, UI_TIMEOUT_MS, waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRuns } from '../idb.ts';
import { cpuByDefault } from '../tinyCpu.ts';

const V = 'setup';
const ITEMS = 10;

/** Every file under `dir`, by its path relative to it. */
function filesOf(dir: string): Record<string, Uint8Array> {
	const out: Record<string, Uint8Array> = {};
	const walk = (d: string) => {
		for (const name of readdirSync(d)) {
			const p = join(d, name);
			if (statSync(p).isDirectory()) walk(p);
			else out[relative(dir, p)] = readFileSync(p);
		}
	};
	walk(dir);
	return out;
}

export const mirrorRun: Scenario<E2EContext> = {
	id: 'mirror-run',
	title:
		"Hugging Face blocked: a class link's model mirror runs the classroom preset on the CPU engine; a mirror missing the file names it",
	// The same 10-item run as classroom-preset, plus a second profile: under a load average of 22 on
	// 2 cores, 10 records took over 240 s to label, so the run gets 420 s.
	timeoutMs: 600_000,
	async run(ctx) {
		const entry = findGguf(DEFAULT_CPU_GENERATOR);
		if (!entry) throw new E2EFailure(`no catalog entry ${DEFAULT_CPU_GENERATOR}`);
		const weights = `${entry.repo}/resolve/main/${entry.file}`;
		const model = await buildTinyModel({ seed: 16 });
		const bytes = readFileSync(model.path);

		// The teacher, at home: the kit from a stand-in Hub (the template ships with the app, so the
		// Hub's tokenizer_config.json is not needed and is skipped).
		const kit = mkdtempSync(join(tmpdir(), 'utp-e2e-mirror-'));
		const hub = await serveHub({ [weights]: bytes });
		let log = '';
		try {
			// The CPU engine's model only: the stand-in Hub has no MLC repo for the WebGPU one.
			const args = ['--out', kit, '--from', hub.base, '--model', DEFAULT_CPU_GENERATOR];
			const code = await mirrorCommand(parseMirrorArgs(args), {
				stderr: { write: (s: string) => (log += s) }
			});
			check(code === 0, `user-turn-probe mirror exited ${code}: ${log}`);
		} finally {
			await hub.close();
		}
		const files = filesOf(kit);
		check(
			files[weights]?.byteLength === bytes.byteLength && 'index.json' in files,
			`the kit holds ${Object.keys(files).join(', ')}`
		);
		const listedMb = Math.round(bytes.byteLength / (1024 * 1024));

		let mirror: HubServer | undefined;
		try {
			// At school: the kit on a static host on a second port; the Hub unreachable.
			mirror = await serveHub(files, { static: true });
			const { page, context } = await ctx.freshProfile({ webgpu: false });
			const hubAsked: string[] = [];
			await context.route(/^https:\/\/([a-z0-9-]+\.)*huggingface\.co\//, async (route) => {
				hubAsked.push(route.request().url());
				await route.abort('internetdisconnected');
			});
			// The service worker's first-visit reload happens on set-up (as in the other CPU scenarios);
			// then the student follows the class link.
			await openView(page, ctx.app.url, '#/setup');
			await page.goto(new URL(`#/?models=${mirror.base}`, ctx.app.url).href);
			const line = page.getByTestId('device-line');
			await line
				.getByText(`models from ${new URL(mirror.base).host}`)
				.waitFor({ timeout: UI_TIMEOUT_MS })
				.catch(async () => {
					throw new E2EFailure(`the device line reads "${await line.innerText()}"`);
				});

			await openView(page, ctx.app.url, '#/setup');
			await cpuByDefault(page);
			const base = await (await need(page, V, 'mirror-base')).inputValue();
			check(base === mirror.base, `set-up's mirror field holds "${base}", not ${mirror.base}`);
			const preset = await need(page, V, 'classroom');
			const size = preset.getByTestId('classroom-size');
			await size
				.getByText(`${listedMb} MB, once`)
				.waitFor({ timeout: UI_TIMEOUT_MS })
				.catch(async () => {
					throw new E2EFailure(`before any download the size reads "${await size.innerText()}"`);
				});
			const weightGets = () =>
				mirror?.requests.filter((r) => r.startsWith(`GET /${weights}`)) ?? [];
			check(weightGets().length === 0, `the model was fetched before Start: ${mirror.requests}`);

			await (await need(preset, V, 'classroom-apply')).click();
			await preset.getByText('Set below').waitFor({ timeout: UI_TIMEOUT_MS });
			const runId = await startRun(page);
			const done = await waitForDone(page, runId, ITEMS, 420_000);
			check(done.records === ITEMS, `${done.records} records, planned ${ITEMS}`);
			check(weightGets().length >= 1, `the weights never came from the mirror: ${mirror.requests}`);
			// The run records the catalog model (its Hub URL), whatever the source.
			const id = ggufUrl(entry);
			await page
				.waitForFunction(
					(want) =>
						(document.querySelector('main') as HTMLElement | null)?.innerText.includes(want),
					`${id} ·`,
					{ timeout: UI_TIMEOUT_MS }
				)
				.catch(() => {
					throw new E2EFailure(`the run view does not name ${id} as its generator`);
				});
			ctx.note(
				`${done.records} records from the mirror (${listedMb} MB listed); ${weightGets().length} GET(s) of the weights; Hub requests refused: ${hubAsked.length}`
			);
			await mirror.close();
			mirror = undefined;

			// The same kit without its weights: one plain message naming the file.
			const partial = { ...files };
			delete partial[weights];
			mirror = await serveHub(partial, { static: true });
			const fresh = await ctx.freshProfile({ webgpu: false });
			await fresh.context.route(/^https:\/\/([a-z0-9-]+\.)*huggingface\.co\//, (route) =>
				route.abort('internetdisconnected')
			);
			await openView(fresh.page, ctx.app.url, '#/setup');
			await fresh.page.goto(new URL(`#/?models=${mirror.base}`, ctx.app.url).href);
			await fresh.page.getByTestId('device-line').getByText('models from').waitFor({
				timeout: UI_TIMEOUT_MS
			});
			await openView(fresh.page, ctx.app.url, '#/setup');
			await cpuByDefault(fresh.page);
			const missingFile = `${mirror.base}/${weights}`;
			const problem = fresh.page.getByTestId('mirror-problem');
			await problem.waitFor({ timeout: UI_TIMEOUT_MS }).catch(() => {
				throw new E2EFailure('set-up says nothing of the mirror missing the model file');
			});
			const said = await problem.innerText();
			check(
				said.includes(missingFile),
				`set-up's mirror message does not name the file: "${said}"`
			);
			await (await need(fresh.page, V, 'classroom-apply')).click();
			await (await need(fresh.page, V, 'start-run')).click();
			// The run view says it once; never as "Hugging Face is blocked". Its own error entry, not
			// the page's text: the isolation reload (app/isolation.ts) moves the address to the run
			// while set-up, whose mirror message names the file too, is still on screen.
			const named = fresh.page.getByText(missingFile, { exact: false });
			await fresh.page
				.waitForFunction(
					(want) =>
						location.hash.startsWith('#/run/') &&
						[...document.querySelectorAll('[data-testid="run-error"]')].some((e) =>
							(e.textContent ?? '').includes(want)
						),
					missingFile,
					{ timeout: 90_000 }
				)
				.catch(async () => {
					throw new E2EFailure(
						`no message naming ${missingFile} after Start (url ${fresh.page.url()}): ${(await fresh.page.locator('main').innerText()).slice(0, 400)}`
					);
				});
			const shown = await named.count();
			const blocked = await fresh.page.getByTestId('hub-blocked').count();
			check(blocked === 0, 'the missing file was said as "Hugging Face is blocked"');
			check(shown >= 1, `the file is named ${shown} times`);
			const text = await fresh.page.locator('main').innerText();
			const times = text.split(missingFile).length - 1;
			check(
				times === 1,
				`the run view names ${missingFile} ${times} times: "${text.slice(0, 600)}"`
			);
			await need(fresh.page, 'run', 'run-discarded');
			check((await storedRuns(fresh.page)).length === 0, 'the failed start left a run');
			ctx.note(`missing file: "${said.slice(0, 160)}"`);
		} finally {
			await mirror?.close();
			rmSync(kit, { recursive: true, force: true });
		}
	}
};
