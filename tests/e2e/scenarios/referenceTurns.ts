/**
 * Reference user turns in the views. A run file is built from real OASST threads (conversations
 * ending [user, assistant, user]: the last user turn is the human's real next turn) and imported;
 * the sample detail shows that human turn beside the generated one, marked as the human's; a blind
 * annotation sitting never has any reference text anywhere in the page (page.content(), at every
 * item); the agreement tab, which shows machine labels, may. At desktop width and at 390 px, the
 * page never scrolls sideways. Then a real run on the mock server over the same threads, uploaded
 * in set-up (each conversation ending on the assistant's reply, with its `reference_turn`): its
 * samples show the human turns and its results the reference share, ties apart and labelled as
 * this app's measure, equal to what the stored records hold.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { readJsonl } from '../../helpers/fixtures.ts';
import { makeManifest, makeRecord } from '../../helpers/factories.ts';
import { bundleToRunFile } from '../../../src/lib/probe/runFile.ts';
import type { Label, ProbeRecord } from '../../../src/lib/probe/types.ts';
import {
	configureRun,
	need,
	openView,
	startRun,
	UI_TIMEOUT_MS,
	uploadDataset,
	waitForDone
} from '../app.ts';
import { RESULTS_DIR, SHOTS_DIR, type E2EContext } from '../context.ts';
import { templateSource } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRecords } from '../idb.ts';
import { horizontalOverflow } from '../tour.ts';

const RUN_ID = 'oasst-reference-import';
const CONVERSATIONS = 'oasst_conversations/conversations.jsonl';
/** Enough threads for a stratified draw to hold every one, few enough to label them all. */
const THREADS = 10;
const TEMPERATURES = [0, 1];
const LABELS: Label[] = ['genuine_followup', 'prompt_restatement', 'assistant_restatement'];
const GROUNDINGS = ['generated', 'reference', 'tie', null] as const;

interface Thread {
	message_tree_id: string;
	messages: { role: 'user' | 'assistant'; content: string }[];
}

const chatml = (messages: Thread['messages']) =>
	messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('') +
	'<|im_start|>user\n';

/** The first THREADS conversations ending [user, assistant, user]: the last turn is the human's. */
function oasstThreads(): Thread[] {
	const threads = readJsonl<Thread>(CONVERSATIONS).filter((t) => {
		const roles = t.messages.map((m) => m.role).slice(-3);
		return roles.join(',') === 'user,assistant,user';
	});
	check(
		threads.length >= THREADS,
		`only ${threads.length} OASST threads end user, assistant, user`
	);
	return threads.slice(0, THREADS);
}

/** One record per thread and temperature, as a run over the threads would store them. */
export function referenceRecords(): ProbeRecord[] {
	return oasstThreads().flatMap((t, i) => {
		const history = t.messages.slice(0, -1);
		const [question, answer, reference] = t.messages.slice(-3).map((m) => m.content);
		return TEMPERATURES.map((temperature, j) => {
			const label = LABELS[(i + j) % LABELS.length];
			return makeRecord({
				run_id: RUN_ID,
				item_id: `oasst-${t.message_tree_id}`,
				task: 'none',
				temperature,
				question,
				answer,
				perturbed_answer: answer,
				prompt: chatml(history),
				user_turn: `Generated turn ${i}.${j}: could you say more about the first point?`,
				correct: null,
				rule_label: 'undecided',
				judge_label: label,
				label,
				judge_rationale: `judged ${label}`,
				reference_turn: reference,
				reference_grounding: GROUNDINGS[(i + j) % GROUNDINGS.length]
			});
		});
	});
}

function writeRunFile(records: ProbeRecord[]): string {
	const manifest = makeManifest({ run_id: RUN_ID });
	manifest.config = {
		...manifest.config,
		dataset: 'conversations',
		item_ids: [...new Set(records.map((r) => r.item_id))],
		temperatures: TEMPERATURES,
		perturbations: ['none'],
		judge_mode: 'llm'
	};
	const dir = join(RESULTS_DIR, 'downloads');
	mkdirSync(dir, { recursive: true });
	const path = join(dir, `${RUN_ID}.run.jsonl`);
	writeFileSync(path, bundleToRunFile({ manifest, records }));
	return path;
}

/** How a text can stand in serialized HTML: as written, or with &, <, > and " escaped. */
function htmlForms(text: string): string[] {
	const escaped = text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/\u00a0/g, '&nbsp;');
	return [...new Set([text, escaped, escaped.replace(/"/g, '&quot;')])];
}

async function noSidewaysScroll(page: Page, where: string): Promise<void> {
	const o = await horizontalOverflow(page);
	check(
		o.docWidth <= o.viewport,
		`${where} is ${o.docWidth} px wide in a ${o.viewport} px viewport (${o.culprits.join(', ')})`
	);
}

async function importRun(page: Page, ctx: E2EContext, file: string): Promise<void> {
	await openView(page, ctx.app.url, '#/runs');
	const input = page.getByTestId('import-files').first();
	check((await input.count()) > 0, 'runs view: no [data-testid="import-files"]');
	await input.setInputFiles([file]);
	const row = page.locator(`[data-testid="run-row"][data-run-id="${RUN_ID}"]`);
	try {
		await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	} catch {
		const error = await page.getByTestId('import-error').allInnerTexts();
		throw new E2EFailure(`runs view: the OASST run was not imported: ${error.join(' | ')}`);
	}
}

/** Picks samples in the list and reads the human turn each shows. */
async function samplesShowReference(
	page: Page,
	ctx: E2EContext,
	runId: string,
	records: Pick<ProbeRecord, 'key' | 'user_turn' | 'reference_turn'>[]
) {
	await openView(page, ctx.app.url, `#/results/${encodeURIComponent(runId)}`);
	await need(page, 'results', 'sample-list');
	const byKey = new Map(records.map((r) => [r.key, r]));
	for (const n of [0, 3]) {
		const row = page.getByTestId('sample-row').nth(n);
		const key = (await row.getAttribute('data-key')) ?? '';
		await row.click();
		const shown = await (await need(page, 'results', 'reference-text')).textContent();
		const want = byKey.get(key);
		check(want, `sample row ${n} has key ${key}, not a record of the run`);
		check(
			shown === want.reference_turn,
			`sample ${key} shows "${shown?.slice(0, 80)}" as the human turn, expected "${want.reference_turn?.slice(0, 80)}"`
		);
		const generated = await page.getByTestId('detail-user-turn').textContent();
		check(generated === want.user_turn, `sample ${key}: generated turn "${generated}"`);
		const verdict = await page.getByTestId('reference-grounding').innerText();
		check(/^Judge: /.test(verdict), `sample ${key}: no judge verdict on the turns ("${verdict}")`);
		await row.click(); // closes it again, so the next pick opens its own
	}
	await page.getByTestId('sample-row').first().click();
	await need(page, 'results', 'reference-turn');
	await noSidewaysScroll(page, 'the results view with a sample and its human turn open');
}

/**
 * Labels every drawn item by key presses, checking before each one (and at the end) that no
 * reference text is anywhere in the serialized page.
 */
async function annotateBlind(page: Page, ctx: E2EContext, references: string[]): Promise<number> {
	await openView(page, ctx.app.url, `#/annotate/${RUN_ID}`);
	await need(page, 'annotate', 'annotator-name');
	await page.keyboard.type('blind-annotator');
	await page.keyboard.press('Enter');
	const progress = await need(page, 'annotate', 'annotate-progress');
	await need(page, 'annotate', 'annotate-item');
	await noSidewaysScroll(page, 'the annotate view');
	const forms = references.flatMap(htmlForms);
	const blind = async (step: string) => {
		const html = await page.content();
		const leaked = forms.find((f) => html.includes(f));
		check(
			leaked === undefined,
			`annotate view, ${step}: a reference turn is in the page: "${leaked?.slice(0, 80)}"`
		);
		check(!/reference-turn|actually wrote next/.test(html), `annotate view, ${step}: reference UI`);
	};
	let labeled = 0;
	for (;;) {
		const before = await progress.innerText();
		const [done, total] = (/(\d+) of (\d+)/.exec(before) ?? []).slice(1).map(Number);
		await blind(`item ${done + 1} of ${total}`);
		if (done === total) break;
		await page.keyboard.press(String((labeled % 3) + 1));
		labeled++;
		await page.waitForFunction(
			([el, text]) => (el as HTMLElement).innerText !== text,
			[await progress.elementHandle(), before] as const,
			{ timeout: UI_TIMEOUT_MS }
		);
	}
	return labeled;
}

async function atWidth(ctx: E2EContext, file: string, records: ProbeRecord[], width: number) {
	const { page } = await ctx.profile();
	await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
	await importRun(page, ctx, file);
	await samplesShowReference(page, ctx, RUN_ID, records);
	await page
		.getByTestId('sample-detail')
		.screenshot({ path: join(SHOTS_DIR, `reference-sample-${width}.png`) });

	const references = [...new Set(records.map((r) => r.reference_turn ?? ''))];
	const labeled = await annotateBlind(page, ctx, references);
	check(labeled === records.length, `labeled ${labeled} of ${records.length} items blind`);

	// The agreement tab shows machine labels already: there the human turn may appear.
	await openView(page, ctx.app.url, `#/annotate/${RUN_ID}?tab=agreement`);
	const list = await need(page, 'annotate', 'disagreements');
	await need(list, 'annotate', 'reference-text');
	await noSidewaysScroll(page, 'the agreement tab with human turns');
	ctx.note(`${width} px: samples show the human turn; ${labeled} items labeled blind, none leaked`);
}

/**
 * The threads as a user's file: one conversation per line, in the chat-export shape, ending on the
 * assistant's reply, with the person's next turn as its `reference_turn` (a conversation ending on
 * a user turn would be a normal item, the model answering that turn).
 */
function writeThreadFile(threads: Thread[]): string {
	const dir = join(RESULTS_DIR, 'downloads');
	mkdirSync(dir, { recursive: true });
	const path = join(dir, 'oasst-threads.jsonl');
	const lines = threads.map((t) =>
		JSON.stringify({
			id: `oasst-${t.message_tree_id}`,
			messages: t.messages.slice(0, -1),
			reference_turn: t.messages[t.messages.length - 1].content
		})
	);
	writeFileSync(path, lines.join('\n') + '\n');
	return path;
}

type Compared = Pick<ProbeRecord, 'key' | 'user_turn' | 'reference_turn' | 'reference_grounding'>;

/**
 * A real run on the mock server: the threads uploaded in set-up, each item's own assistant reply
 * kept, the model writing the next user turn, the judge labelling it and comparing it with the
 * human's. The samples show the human turn, and the results give the share the records hold.
 */
async function realRun(ctx: E2EContext): Promise<void> {
	const threads = oasstThreads();
	const { page } = await ctx.profile();
	const mock = await ctx.mock('probe');
	await openView(page, ctx.app.url, '#/setup');
	await configureRun(page, {
		mock,
		template: templateSource(ctx),
		items: threads.length,
		temperatures: TEMPERATURES,
		truncate: false,
		samples: 1,
		judgeMode: 'hybrid'
	});
	await uploadDataset(page, writeThreadFile(threads), threads.length);
	const runId = await startRun(page);
	const planned = threads.length * TEMPERATURES.length;
	await waitForDone(page, runId, planned);

	const records = await storedRecords<Compared>(page, runId, [
		'key',
		'user_turn',
		'reference_turn',
		'reference_grounding'
	]);
	const humans = new Set(threads.map((t) => t.messages[t.messages.length - 1].content));
	check(
		records.length === planned && records.every((r) => humans.has(r.reference_turn ?? '')),
		`of ${records.length} records, ${records.filter((r) => !humans.has(r.reference_turn ?? '')).length} lack their thread's human turn`
	);
	const compared = records.filter((r) => r.reference_grounding != null);
	const human = compared.filter((r) => r.reference_grounding === 'reference').length;
	check(compared.length > 0, 'the judge compared no generated turn with its human turn');

	await samplesShowReference(page, ctx, runId, records);
	const share = (await (await need(page, 'results', 'reference-share')).innerText()).replace(
		/\s+/g,
		' '
	);
	check(
		share.includes("this app's measure, not the paper's") &&
			share.includes(`and ${human} less grounded: ${compared.length} compared`) &&
			!share.includes(' )'),
		`the results' reference share reads "${share}"; the records hold ${human} human wins of ${compared.length}`
	);
	await page.setViewportSize({ width: 390, height: 844 });
	await noSidewaysScroll(page, 'the results view of the OASST run at 390 px');
	ctx.note(`real run: ${planned} turns; results: ${share}`);
}

export const referenceTurns: Scenario<E2EContext> = {
	id: 'reference-turns',
	title:
		'OASST threads: samples show the human’s real next turn, blind annotation never has it in the page (desktop and 390 px); a real run gives the reference share, ties apart, as this app’s measure',
	timeoutMs: 240_000,
	async run(ctx) {
		const records = referenceRecords();
		const file = writeRunFile(records);
		for (const width of [1280, 390]) await atWidth(ctx, file, records, width);
		await realRun(ctx);
	}
};
