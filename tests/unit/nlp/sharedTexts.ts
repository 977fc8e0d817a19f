/**
 * The ../shared/fixtures texts the NLTK reference fixtures were made from, with the same ids and
 * order as make_reference.py's shared_texts(): OASST conversation messages, GSM8K questions and
 * IFEval prompts. Read at test time; never copied into the repo.
 */
import { createHash } from 'node:crypto';
import { readJsonl } from '../../helpers/fixtures.ts';

export interface SharedText {
	id: string;
	text: string;
}

export function sharedTexts(): SharedText[] {
	const out: SharedText[] = [];
	readJsonl<{ messages: { content: string }[] }>('oasst_conversations/conversations.jsonl').forEach(
		(conv, i) =>
			conv.messages.forEach((m, j) => out.push({ id: `oasst:${i}:${j}`, text: m.content }))
	);
	readJsonl<{ question: string }>('gsm8k/test.jsonl').forEach((q, i) =>
		out.push({ id: `gsm8k:${i}`, text: q.question })
	);
	for (const p of readJsonl<{ key: number; prompt: string }>('ifeval/input_data.jsonl')) {
		out.push({ id: `ifeval:${p.key}`, text: p.prompt });
	}
	return out;
}

/** make_reference.py's digest(): the first 16 hex digits of sha256(compact JSON). */
export function digest(value: unknown): string {
	return createHash('sha256').update(JSON.stringify(value), 'utf8').digest('hex').slice(0, 16);
}
