/**
 * One record of a user's file (a parsed JSON line or CSV row) → a DatasetItem, or the list of
 * what is wrong with it. Accepts the shapes people already have on disk: GSM8K lines, IFEval
 * lines, `{prompt, gold, task}`, multiple choice `{question, choices, answer}`, chat
 * `{messages}` exports, HealthBench's `{prompt_id, prompt: [messages]}` conversations and
 * Coval's `{prompt_id, prompt: {messages}}` ones. A conversation ending on a user turn is a
 * normal item, as the paper runs HealthBench and Coval: the model answers that last turn, then
 * the probe runs.
 */
import { TASK_KINDS, type ChatMessage, type DatasetItem, type TaskKind } from '../probe/types.ts';
import { isGsm8kGold, isTaskKind, itemProblems } from './items.ts';
import { ifevalItemId } from './tasks/ifeval.ts';

export type RecordResult = { item: DatasetItem; problems?: never } | { problems: string[] };

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ROLES: readonly string[] = ['system', 'user', 'assistant'];

/**
 * @param record a parsed JSON value or a CSV row object (empty cells already removed)
 * @param fallbackId the id to use when the record has none ("<file>-<line>")
 */
export function recordToItem(record: unknown, fallbackId: string): RecordResult {
	// A bare JSON string per line is how prompt lists are often shipped (OASST's prompt lottery).
	if (typeof record === 'string') record = { prompt: record };
	if (typeof record !== 'object' || record === null || Array.isArray(record)) {
		return { problems: [`expected a JSON object, got ${describe(record)}`] };
	}
	const r = record as Record<string, unknown>;
	const problems: string[] = [];
	const id = readId(r, fallbackId, problems);
	let task: TaskKind | undefined;
	if (r.task !== undefined) {
		if (isTaskKind(r.task)) task = r.task;
		else problems.push(`'task' must be one of ${TASK_KINDS.join(', ')}, got ${describe(r.task)}`);
	}

	const { prompt, history, fixed_answer, reference_turn } = readPrompt(r, problems);
	const goldRaw = r.gold ?? r.answer;
	let gold: string | undefined;
	if (goldRaw !== undefined) {
		if (typeof goldRaw === 'string' || typeof goldRaw === 'number') gold = String(goldRaw);
		else problems.push(`'${r.gold !== undefined ? 'gold' : 'answer'}' must be a string or number`);
	}

	const item: DatasetItem = { id, task: task ?? 'none', prompt: prompt ?? '' };
	if (r.choices !== undefined) {
		if (task !== undefined && task !== 'multiple_choice') {
			problems.push(`'choices' only go with task multiple_choice, not ${task}`);
		}
		const choices = readChoices(r.choices, problems);
		if (choices && prompt !== undefined) applyChoices(item, choices, goldRaw, problems);
	} else {
		const ids = r.instruction_ids ?? r.instruction_id_list;
		if (ids !== undefined) readIfeval(item, ids, r.kwargs, task, problems);
		else if (task === undefined) {
			item.task = gold !== undefined && isGsm8kGold(gold) ? 'gsm8k' : 'none';
		}
		if (gold !== undefined) item.gold = gold;
		if (item.task === 'gsm8k' && gold === undefined) {
			problems.push("a gsm8k item needs an 'answer'");
		}
	}
	if (history && history.length > 0) item.history = history;
	if (fixed_answer !== undefined) item.fixed_answer = fixed_answer;
	if (reference_turn !== undefined) item.reference_turn = reference_turn;
	if (problems.length > 0) return { problems };
	const rest = itemProblems(item);
	return rest.length > 0 ? { problems: rest } : { item };
}

/** What a record says about the conversation: the prompt, earlier turns, and any fixed reply. */
type PromptParts = Pick<DatasetItem, 'history' | 'fixed_answer' | 'reference_turn'> & {
	prompt?: string;
};

/** Where a record keeps its conversation, if it has one: chat exports, HealthBench, Coval. */
function conversationOf(r: Record<string, unknown>): { field: string; value: unknown } | undefined {
	if (r.messages !== undefined) return { field: 'messages', value: r.messages };
	if (Array.isArray(r.prompt)) return { field: 'prompt', value: r.prompt };
	const inner = r.prompt as Record<string, unknown> | null | undefined;
	if (typeof inner === 'object' && inner !== null && inner.messages !== undefined) {
		return { field: 'prompt.messages', value: inner.messages };
	}
	return undefined;
}

/**
 * The user's message and any earlier turns: from `messages` (chat exports), a list in `prompt`
 * (HealthBench) or `prompt.messages` (Coval), else `prompt` or `question`, with an optional
 * `history` and the conversation's own `fixed_answer` and `reference_turn` (the app's own item
 * format, so exports re-import).
 */
function readPrompt(r: Record<string, unknown>, problems: string[]): PromptParts {
	const conversation = conversationOf(r);
	if (conversation) {
		const { field, value } = conversation;
		const messages = readChat(value, field, problems);
		return messages ? fromConversation(messages, field, r.reference_turn, problems) : {};
	}
	if (r.prompt === undefined && r.question === undefined) {
		problems.push("missing 'question' or 'prompt'");
		return {};
	}
	const field = r.prompt !== undefined ? 'prompt' : 'question';
	const text = r[field];
	const history = r.history === undefined ? [] : readChat(r.history, 'history', problems);
	const fixed = readFixedReply(r, problems);
	if (typeof text !== 'string') problems.push(`'${field}' must be a string`);
	else if (text.trim() === '') problems.push(`'${field}' is empty`);
	else return { prompt: text, history, ...fixed };
	return {};
}

/**
 * A conversation's turns as an item. One ending on a user turn is a normal item: that turn is the
 * prompt the model answers and the earlier turns are its history, whatever they hold (HealthBench
 * and Coval conversations are user → assistant → user, and the paper has the model answer the last
 * turn). A conversation with the person's real next turn says so: it ends on the assistant's reply
 * and carries a `reference_turn`; the reply becomes the fixed answer (not generated) and the
 * reference the turn the generated one is compared with. Anything else is a problem, by line.
 */
function fromConversation(
	messages: ChatMessage[],
	field: string,
	reference: unknown,
	problems: string[]
): PromptParts {
	if (messages.length === 0) {
		problems.push(`'${field}' must be a non-empty list`);
		return {};
	}
	const last = messages[messages.length - 1];
	if (reference !== undefined) return withReference(messages, field, reference, problems);
	if (last.role !== 'user' || last.content.trim() === '') {
		problems.push(
			`'${field}' must end with a non-empty user message (the prompt), or with the ` +
				"assistant's reply and a 'reference_turn' (the person's real next turn)"
		);
		return {};
	}
	return { prompt: last.content, history: messages.slice(0, -1) };
}

/** [..., user, assistant] and the person's next turn: a fixed-answer item with its reference. */
function withReference(
	messages: ChatMessage[],
	field: string,
	reference: unknown,
	problems: string[]
): PromptParts {
	const [prompt, answer] = messages.slice(-2);
	const replied =
		messages.length >= 2 &&
		prompt.role === 'user' &&
		prompt.content.trim() !== '' &&
		answer.role === 'assistant' &&
		answer.content.trim() !== '';
	if (!replied) {
		problems.push(
			`a 'reference_turn' answers the conversation's last assistant turn: '${field}' must end ` +
				'with a user message and the non-empty assistant reply to it'
		);
	}
	if (typeof reference !== 'string' || reference.trim() === '') {
		problems.push("'reference_turn' must be a non-empty string");
	}
	if (!replied || typeof reference !== 'string') return {};
	return {
		prompt: prompt.content,
		history: messages.slice(0, -2),
		fixed_answer: answer.content,
		reference_turn: reference
	};
}

/** `fixed_answer` and `reference_turn` on a record with a text prompt (this app's export). */
function readFixedReply(
	r: Record<string, unknown>,
	problems: string[]
): Pick<DatasetItem, 'fixed_answer' | 'reference_turn'> {
	const out: Pick<DatasetItem, 'fixed_answer' | 'reference_turn'> = {};
	for (const field of ['fixed_answer', 'reference_turn'] as const) {
		const value = r[field];
		if (value === undefined) continue;
		if (typeof value !== 'string' || value.trim() === '') {
			problems.push(`'${field}' must be a non-empty string`);
		} else out[field] = value;
	}
	if (out.reference_turn !== undefined && r.fixed_answer === undefined) {
		problems.push("a 'reference_turn' answers a 'fixed_answer': the record needs both");
	}
	return out;
}

/**
 * Renders the options under the question as "A. …" lines, unless the prompt already ends with
 * exactly those lines (an item exported by this app), and turns the answer into a letter.
 */
function applyChoices(
	item: DatasetItem,
	choices: string[],
	answer: unknown,
	problems: string[]
): void {
	const block = choices.map((c, i) => `${LETTERS[i]}. ${c}`).join('\n');
	item.task = 'multiple_choice';
	item.choices = choices;
	if (!item.prompt.endsWith(`\n${block}`)) item.prompt = `${item.prompt}\n\n${block}`;
	if (answer === undefined) {
		problems.push("missing 'answer' for the choices");
		return;
	}
	const letter = answerLetter(answer, choices);
	if (letter !== undefined) item.gold = letter;
	else {
		problems.push(
			`'answer' ${describe(answer)} is not a letter A–${LETTERS[choices.length - 1]}, ` +
				'a 0-based index or one of the choices'
		);
	}
}

function readId(r: Record<string, unknown>, fallback: string, problems: string[]): string {
	// HealthBench and Coval name their conversations `prompt_id`.
	const raw = r.id ?? (typeof r.prompt_id === 'string' ? r.prompt_id : undefined);
	if (raw === undefined) {
		// IFEval lines carry `key`; the IFEval dataset names the same prompts by it.
		const isIfeval = r.instruction_id_list !== undefined || r.instruction_ids !== undefined;
		if (isIfeval && (typeof r.key === 'number' || typeof r.key === 'string')) {
			return ifevalItemId(r.key);
		}
		return fallback;
	}
	if ((typeof raw === 'string' && raw.trim() !== '') || Number.isFinite(raw)) return String(raw);
	problems.push("'id' must be a non-empty string or a number");
	return fallback;
}

function readChat(value: unknown, field: string, problems: string[]): ChatMessage[] | undefined {
	if (!Array.isArray(value)) {
		problems.push(`'${field}' must be a list of {role, content} messages`);
		return undefined;
	}
	const messages: ChatMessage[] = [];
	value.forEach((m: unknown, i: number) => {
		const msg = m as Partial<Record<'role' | 'content', unknown>> | null;
		// OpenAI's newer chat format names the system turn `developer`.
		const role = msg?.role === 'developer' ? 'system' : String(msg?.role);
		if (typeof msg !== 'object' || msg === null || !ROLES.includes(role)) {
			problems.push(`${field}[${i}] needs a role of system, user or assistant`);
		} else if (typeof msg.content !== 'string') {
			problems.push(`${field}[${i}] needs a string 'content'`);
		} else messages.push({ role: role as ChatMessage['role'], content: msg.content });
	});
	return messages.length === value.length ? messages : undefined;
}

/** A list, or in a CSV cell a JSON list or "a | b | c". */
function readChoices(value: unknown, problems: string[]): string[] | undefined {
	let list = value;
	if (typeof value === 'string') {
		list = value.trim().startsWith('[') ? parseJsonOr(value) : value.split('|');
	}
	if (!Array.isArray(list) || !list.every((c) => typeof c === 'string' || typeof c === 'number')) {
		problems.push("'choices' must be a list of strings");
		return undefined;
	}
	const choices = list.map((c) => String(c).trim());
	if (choices.length < 2 || choices.length > LETTERS.length) {
		problems.push(`'choices' must have 2 to ${LETTERS.length} options, got ${choices.length}`);
		return undefined;
	}
	if (choices.some((c) => c === '')) {
		problems.push("'choices' has an empty option");
		return undefined;
	}
	return choices;
}

/** A letter, then an exact option text, then a 0-based index (as MMLU-style exports store it). */
function answerLetter(answer: unknown, choices: string[]): string | undefined {
	const text = String(answer).trim();
	const letter = text.toUpperCase();
	if (/^[A-Z]$/.test(letter) && LETTERS.indexOf(letter) < choices.length) return letter;
	const byText = choices.indexOf(text);
	if (byText >= 0) return LETTERS[byText];
	const index = /^\d+$/.test(text) ? Number(text) : NaN;
	return index < choices.length ? LETTERS[index] : undefined;
}

function readIfeval(
	item: DatasetItem,
	ids: unknown,
	kwargs: unknown,
	task: TaskKind | undefined,
	problems: string[]
): void {
	if (task !== undefined && task !== 'ifeval') {
		problems.push(`'instruction_ids' only go with task ifeval, not ${task}`);
	}
	const idList = typeof ids === 'string' ? parseJsonOr(ids) : ids;
	if (!Array.isArray(idList) || !idList.every((x) => typeof x === 'string')) {
		problems.push("'instruction_ids' must be a list of strings");
		return;
	}
	const kw = typeof kwargs === 'string' ? parseJsonOr(kwargs) : (kwargs ?? idList.map(() => ({})));
	const isObj = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
	if (!Array.isArray(kw) || kw.length !== idList.length || !kw.every(isObj)) {
		problems.push("'kwargs' must be a list of objects, one per instruction id");
		return;
	}
	item.task = 'ifeval';
	item.instruction_ids = idList;
	item.kwargs = kw.map((k: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(k).filter(([, v]) => v !== null))
	);
}

function parseJsonOr(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
	return typeof value === 'object' ? 'an object' : String(value);
}
