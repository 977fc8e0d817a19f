/**
 * The browser's server engine against real llama.cpp: the tiny real model (Qwen2.5's tokenizer and
 * chat template) behind the test-only OpenAI-compatible server over node-llama-cpp, on 127.0.0.1,
 * called cross-origin from the app's page as a user's llama-server would be. A small run (demo
 * dataset, 3 items, T 0, the same model as LLM judge through a JSON-schema grammar) must finish
 * with every record stored, real stop tokens kept out of the user turns, usage counted, and every
 * judge reply valid JSON. The answer token limit follows the context the server tells in /props.
 * Self-contained: its own model server and profile.
 */
import type { Page } from 'playwright-core';
import { startLlamaCppServer, type LlamaCppServer } from '../../helpers/llamaCppServer.ts';
import { buildTinyModel } from '../../helpers/tinyModel/index.ts';
import {
	need,
	openView,
	setControl,
	startRun,
	TEMPLATE_FILE,
	UI_TIMEOUT_MS,
	waitForDone
} from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRecords } from '../idb.ts';

const ITEMS = 3;
/** 3 items × T 0 × {none} × 1: one greedy user turn per item. */
const PLANNED = ITEMS;
const ALIAS = 'tiny-qwen2';
/**
 * The server's slot context (llama-server -c): /props tells it, and the answer limit follows. The
 * judge's v4 prompt (three criteria, conflicts) plus a question and answer takes ~2,030 tokens: at
 * 2,048 the server ended the judge reply after 14 tokens, its context full.
 */
const CONTEXT = 3072;
/** answerTokenLimit: the context less the user turn (48) and room for the question (512). */
const ANSWER_LIMIT = CONTEXT - 48 - 512;

interface StoredTurn {
	key: string;
	user_turn: string;
	finish_reason: string;
	judge_raw: string | null;
	label: string | null;
	label_source: string | null;
	usage: { prompt_tokens: number; completion_tokens: number };
	judge_usage?: { prompt_tokens: number; completion_tokens: number };
}

const TURN_FIELDS = [
	'key',
	'user_turn',
	'finish_reason',
	'judge_raw',
	'label',
	'label_source',
	'usage',
	'judge_usage'
] as const;

async function configure(page: Page, ctx: E2EContext, server: LlamaCppServer): Promise<void> {
	const v = 'setup';
	await setControl(await need(page, v, 'engine-server'), true);
	await setControl(await need(page, v, 'base-url'), `${server.url}/v1`);
	await setControl(await need(page, v, 'model-id'), '');
	// The served id comes from the server's /v1/models, as a user would pick it.
	await (await need(page, v, 'check-server')).click();
	try {
		await page.waitForFunction(
			(want) =>
				(document.querySelector('[data-testid="model-id"]') as HTMLInputElement | null)?.value ===
				want,
			ALIAS,
			{ timeout: UI_TIMEOUT_MS }
		);
	} catch {
		throw new E2EFailure(`setup view: "Check server" did not fill in ${ALIAS}`);
	}
	// No template chosen yet: llama-server serves its own in /props, and the check says it is used.
	const served = await need(page, v, 'server-check');
	try {
		await served.getByText('serves its own chat template').waitFor({ timeout: UI_TIMEOUT_MS });
	} catch {
		throw new E2EFailure(
			`setup view: "Check server" did not use the template in /props: "${await served.innerText()}"`
		);
	}
	await setControl(await need(page, v, 'judge-mode'), 'llm');
	await setControl(await need(page, v, 'judge-model-id'), '');
	// Qwen2.5's template from the shared fixture (the tiny model's own, but for a trailing newline).
	await setControl(await need(page, v, 'template-kind-url'), true);
	await setControl(await need(page, v, 'template-url'), ctx.app.tokenizerConfigUrl(TEMPLATE_FILE));
	await setControl(await need(page, v, 'dataset-select'), 'demo');
	await setControl(await need(page, v, 'n-items'), String(ITEMS));
	await setControl(await need(page, v, 'seed'), '1');
	await setControl(await need(page, v, 'temperatures'), '0');
	await setControl(await need(page, v, 'perturbation-truncate'), false);
	const append = page.getByTestId('perturbation-append');
	if ((await append.count()) > 0) await setControl(append.first(), false);
	await setControl(await need(page, v, 'samples'), '1');
	await page.locator('summary', { hasText: 'Token limits' }).click();
	await setControl(await need(page, v, 'max-tokens'), '48');
	// The answer limit is sized from the context window the server tells (/props n_ctx).
	await setControl(await need(page, v, 'answer-tokens-auto'), true);
	const note = await need(page, v, 'answer-limit');
	try {
		await note
			.getByText(`${CONTEXT.toLocaleString('en')}-token context`)
			.waitFor({ timeout: UI_TIMEOUT_MS });
	} catch {
		throw new E2EFailure(
			`setup view: the server's ${CONTEXT}-token context was not used: "${await note.innerText()}"`
		);
	}
	const text = await note.innerText();
	check(
		text.includes(ANSWER_LIMIT.toLocaleString('en')) && text.includes('llama-server /props'),
		`setup view: the answer limit does not follow /props: "${text}"`
	);
}

/** The stored manifest's answer token limit. */
async function storedAnswerLimit(page: Page, runId: string): Promise<number | undefined> {
	return page.evaluate(async (id) => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const req = indexedDB.open('user-turn-probe');
			req.onsuccess = () => resolve(req.result);
			req.onerror = () => reject(req.error);
		});
		try {
			const row = await new Promise<{ manifest?: { config?: { answer_max_tokens?: number } } }>(
				(resolve, reject) => {
					const req = db.transaction('runs', 'readonly').objectStore('runs').get(id);
					req.onsuccess = () => resolve(req.result);
					req.onerror = () => reject(req.error);
				}
			);
			return row?.manifest?.config?.answer_max_tokens;
		} finally {
			db.close();
		}
	}, runId);
}

export const serverRealRun: Scenario<E2EContext> = {
	id: 'server-real',
	title:
		'the server engine runs against real llama.cpp (tiny model) from the page, cross-origin, sized by /props',
	timeoutMs: 300_000,
	async run(ctx) {
		const model = await buildTinyModel({ seed: 15 });
		const server = await startLlamaCppServer({
			modelPath: model.path,
			alias: ALIAS,
			contextSize: CONTEXT
		});
		try {
			const { page, watch } = await ctx.profile();
			await openView(page, ctx.app.url, '#/setup');
			// First a server that does not tell its context (the mock: no /props, no max_model_len):
			// set-up says so and keeps the typed limit.
			const mock = await ctx.mock();
			await setControl(await need(page, 'setup', 'engine-server'), true);
			await setControl(await need(page, 'setup', 'base-url'), mock.url);
			await setControl(await need(page, 'setup', 'model-id'), 'mock-model');
			try {
				await page
					.getByTestId('answer-limit')
					.getByText("The model's context window is not reported by this server")
					.waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
			} catch {
				throw new E2EFailure(
					`setup view: no "not reported" note for a server without /props: "${await page.getByTestId('answer-limit').textContent()}"`
				);
			}
			// The note follows the answer: /props was asked (404) before it says "not reported".
			check(
				mock.requests.some((r) => r.path === '/props'),
				`set-up said "not reported" without asking /props: ${mock.requests.map((r) => r.path).join(', ')}`
			);
			await configure(page, ctx, server);
			const t0 = Date.now();
			const runId = await startRun(page);
			const done = await waitForDone(page, runId, PLANNED, 240_000);
			const runMs = Date.now() - t0;
			check(done.records === PLANNED, `${done.records} records stored, planned ${PLANNED}`);
			const limit = await storedAnswerLimit(page, runId);
			check(limit === ANSWER_LIMIT, `the run's answer limit is ${limit}, not ${ANSWER_LIMIT}`);

			const turns = await storedRecords<StoredTurn>(page, runId, TURN_FIELDS);
			check(turns.length === PLANNED, `${turns.length} records read back, planned ${PLANNED}`);
			for (const t of turns) {
				check(!t.user_turn.includes('<|im_end|>'), `a stop token in the user turn of ${t.key}`);
				check(!t.user_turn.includes('<|im_start|>'), `a turn header in the user turn of ${t.key}`);
				check(
					t.usage.prompt_tokens > 0 && t.usage.completion_tokens > 0,
					`usage not counted for ${t.key}: ${JSON.stringify(t.usage)}`
				);
				check(t.label_source === 'judge' && t.label !== null, `${t.key} was not judged`);
				check(t.judge_raw !== null, `no judge reply stored for ${t.key}`);
				try {
					JSON.parse(t.judge_raw);
				} catch {
					throw new E2EFailure(`the judge reply for ${t.key} is not JSON: ${t.judge_raw}`);
				}
				check(
					(t.judge_usage?.prompt_tokens ?? 0) > 0,
					`judge usage not counted for ${t.key}: ${JSON.stringify(t.judge_usage)}`
				);
			}
			check(
				(server.served['/v1/completions'] ?? 0) >= 2 * PLANNED,
				`the page sent ${server.served['/v1/completions'] ?? 0} completions (answers + user turns)`
			);
			check(watch.blocked.length === 0, `requests left 127.0.0.1: ${watch.blocked.join(', ')}`);
			const tokens = turns.reduce((n, t) => n + t.usage.completion_tokens, 0);
			ctx.note(
				`${PLANNED} records in ${(runMs / 1000).toFixed(1)} s; user-turn tokens ${tokens}; finish ${turns.map((t) => t.finish_reason).join(',')}; served ${JSON.stringify(server.served)}`
			);
		} finally {
			await server.close();
		}
	}
};
