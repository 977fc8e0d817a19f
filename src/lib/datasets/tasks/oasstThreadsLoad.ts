/**
 * Loading OASST threads (tasks/oasstThreads.ts): three rounds of `/filter` calls on the datasets
 * server and the threads built from their rows. Loaded on first use, so set-up's first paint
 * carries only the task's description.
 */
import type { DatasetItem } from '../../probe/types.ts';
import { DatasetError } from '../errors.ts';
import { fetchAllRowEntries, type HfRow } from '../hfRows.ts';
import { requireString, type Row } from '../rows.ts';
import type { TaskLoadContext } from './task.ts';
import { OASST_FIRST_TURNS_WHERE } from './conversations.ts';

/** The split the rounds read from. */
export interface OasstSplit {
	dataset: string;
	config: string;
	split: string;
}

/**
 * Parent ids per `/filter` call: a `where` of 50 quoted UUIDs is about 2.3 KB, well inside the
 * URL lengths servers and proxies accept (8 KB is a common limit).
 */
export const PARENT_IDS_PER_CALL = 50;

/** DuckDB's string literal: single quotes doubled (OASST ids are UUIDs, but never trust a row). */
const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** The `where` of one round: the children of these messages with this role. */
export function childrenWhere(
	parentIds: readonly string[],
	role: 'assistant' | 'prompter'
): string {
	return `"parent_id" IN (${parentIds.map(sqlString).join(', ')}) AND "role" = '${role}'`;
}

interface Message {
	id: string;
	parent: string | null;
	text: string;
	role: string;
	/** Assistant replies: 0 is the best the reviewers ranked; null unranked. */
	rank: number | null;
	row_idx: number;
	usable: boolean;
}

/**
 * A message row, and whether it may be part of a thread. Left out: deleted messages, ones human
 * reviewers rejected (`review_result: false`), blank texts, and `synthetic` ones (written by a
 * model for the project, not by a volunteer). The synthetic rule is what makes the reference a
 * person's turn; it applies at every step, so each thread is people throughout and the comparison
 * is always a model's user turn against a person's, after an answer a person wrote.
 * @throws DatasetError when message_id or text is not a string (the schema changed).
 */
export function oasstMessage({ row, row_idx }: HfRow): Message {
	const id = row.message_id;
	if (typeof id !== 'string' || id === '') {
		throw new DatasetError(`oasst row: 'message_id' is missing`);
	}
	const text = requireString(row as Row, 'text', `oasst message ${id}`);
	const usable =
		row.deleted !== true &&
		row.review_result !== false &&
		row.synthetic !== true &&
		text.trim() !== '';
	return {
		id,
		parent: typeof row.parent_id === 'string' ? row.parent_id : null,
		text,
		role: String(row.role),
		rank: typeof row.rank === 'number' ? row.rank : null,
		row_idx,
		usable
	};
}

/** Best rank first, unranked last, then server order: the reply reviewers preferred. */
function byRank(a: Message, b: Message): number {
	const ra = a.rank ?? Number.POSITIVE_INFINITY;
	const rb = b.rank ?? Number.POSITIVE_INFINITY;
	return ra !== rb ? ra - rb : a.row_idx - b.row_idx;
}

function childrenOf(messages: readonly Message[]): Map<string, Message[]> {
	const out = new Map<string, Message[]>();
	for (const m of messages) {
		if (!m.usable || m.parent === null) continue;
		const list = out.get(m.parent) ?? [];
		list.push(m);
		out.set(m.parent, list);
	}
	return out;
}

/**
 * Threads from the three rounds of messages: per first user turn, the best-ranked assistant reply
 * that a person answered, and that person's first reply (server order). A thread with no such
 * reply is skipped: without a human's next turn there is nothing to compare with.
 */
export function buildThreads(
	roots: readonly Message[],
	assistants: readonly Message[],
	replies: readonly Message[]
): DatasetItem[] {
	const answersOf = childrenOf(assistants.filter((m) => m.role === 'assistant'));
	const repliesOf = childrenOf(replies.filter((m) => m.role === 'prompter'));
	const items: DatasetItem[] = [];
	for (const root of roots) {
		if (!root.usable || root.role !== 'prompter' || root.parent !== null) continue;
		const ranked = [...(answersOf.get(root.id) ?? [])].sort(byRank);
		for (const answer of ranked) {
			const reply = (repliesOf.get(answer.id) ?? []).sort((a, b) => a.row_idx - b.row_idx)[0];
			if (reply === undefined) continue;
			items.push({
				id: `oasst-thread-${root.id}`,
				task: 'none',
				prompt: root.text,
				fixed_answer: answer.text,
				reference_turn: reply.text
			});
			break;
		}
	}
	return items;
}

/** Rows fetched across the rounds, as one count that only grows. */
function roundProgress(ctx: TaskLoadContext) {
	let before = 0;
	return {
		report: (done: number, total: number) => ctx.onProgress?.(before + done, before + total),
		next: (fetched: number) => {
			before += fetched;
		}
	};
}

/** Every child (of this role) of these messages, asked in calls of PARENT_IDS_PER_CALL ids. */
async function childrenRound(
	source: OasstSplit,
	ctx: TaskLoadContext,
	parents: readonly Message[],
	role: 'assistant' | 'prompter',
	progress: ReturnType<typeof roundProgress>
): Promise<Message[]> {
	const ids = parents.filter((m) => m.usable).map((m) => m.id);
	const out: Message[] = [];
	for (let i = 0; i < ids.length; i += PARENT_IDS_PER_CALL) {
		const rows = await fetchRows(
			source,
			ctx,
			childrenWhere(ids.slice(i, i + PARENT_IDS_PER_CALL), role),
			progress
		);
		out.push(...rows.map(oasstMessage));
	}
	return out;
}

async function fetchRows(
	source: OasstSplit,
	ctx: TaskLoadContext,
	where: string,
	progress: ReturnType<typeof roundProgress>
): Promise<HfRow[]> {
	const rows = await fetchAllRowEntries({
		...source,
		where,
		fetch: ctx.fetch,
		signal: ctx.signal,
		token: ctx.token,
		onProgress: progress.report,
		sleep: ctx.sleep,
		base: ctx.base
	});
	progress.next(rows.length);
	return rows;
}

/**
 * Three rounds on the datasets server's `/filter` (DuckDB runs each `where` there, so only the
 * rows asked for travel): English first user turns, then the assistant replies to them, then the
 * user replies to those.
 */
export async function loadThreads(
	source: OasstSplit,
	ctx: TaskLoadContext
): Promise<DatasetItem[]> {
	const progress = roundProgress(ctx);
	const roots = (await fetchRows(source, ctx, OASST_FIRST_TURNS_WHERE, progress)).map(oasstMessage);
	const assistants = await childrenRound(source, ctx, roots, 'assistant', progress);
	const replies = await childrenRound(source, ctx, assistants, 'prompter', progress);
	return buildThreads(roots, assistants, replies);
}
