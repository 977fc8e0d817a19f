/**
 * The paper's own model families as a model writes them, past the end of its turn unless stopped:
 * Qwen3.5 and GLM-4.7-Flash reason inside a <think> their generation prompt opened; gpt-oss answers in
 * harmony analysis + final channels; GLM has no end-of-turn token, so the next role tag ends a
 * turn. Shared by the pipeline tests on every engine and server flavour.
 */
import type { VllmModel } from './vllmDecode.ts';
import type { ChatTemplate } from '../../src/lib/probe/template.ts';
import type { DatasetItem } from '../../src/lib/probe/types.ts';
import { defaultScript, type ScriptFn, type ScriptRequest } from './script.ts';

export const QUESTION =
	'Janet’s ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with four. She sells the rest for $2 each. How much does she make every day?';
export const ITEM: DatasetItem = { id: 'janet', task: 'gsm8k', prompt: QUESTION, gold: '18' };
/** The reasoning ends on a wrong draft number: scoring it would mark the answer wrong. */
export const REASONING = 'Eggs left: 16 - 3 - 4 = 9. Each sells for $2, so 9 * 2 = 18. Not 27.';
export const VISIBLE =
	'Janet has 16 - 3 - 4 = 9 eggs left to sell. She sells them for 9 * 2 = $18 every day.\n#### 18';
export const FOLLOW_UP = 'Why did you subtract the muffin eggs before multiplying by $2?';
export const COT_LEAK =
	'We need to ensure final answer line exactly "Answer: 18". Let us double check the subtraction.';

export interface Family {
	id: string;
	/** What the model writes after the generation prompt, past the end of its turn. */
	answer: string;
	/** A genuine follow-up, then the model running on into the assistant's reply. */
	followUp: string;
	/** The model continuing as the assistant instead of writing the user's turn. */
	leak: string;
	/**
	 * What the model writes first when the probe's header stops at the role (gpt-oss "<|start|>user"):
	 * the rest of the header for a plain message. The leak opens with its own channel instead.
	 */
	headerRest: string;
	opensAnswer: (prompt: string) => boolean;
	/** The full header or, for gpt-oss, the header cut at the role (the paper's rule). */
	opensUserTurn: (prompt: string) => boolean;
	roleTags: RegExp;
	/** The tokenizer's special tokens, as the template spells them (vLLM drops these by default). */
	special: string[];
}

export const FAMILIES: Family[] = [
	{
		id: 'Qwen/Qwen3.5-0.8B',
		answer: `${REASONING}\n</think>\n\n${VISIBLE}<|im_end|>\n<|im_start|>user\nThanks!<|im_end|>`,
		followUp: `${FOLLOW_UP}<|im_end|>\n<|im_start|>assistant\nBecause only the rest is sold.<|im_end|>`,
		leak: `<|im_start|>assistant\n${VISIBLE}<|im_end|>`,
		headerRest: '\n',
		opensAnswer: (p) => p.endsWith('<|im_start|>assistant\n<think>\n'),
		opensUserTurn: (p) => /<\|im_start\|>user\n?$/.test(p),
		roleTags: /<\|im_(?:start|end)\|>/,
		special: ['<|im_start|>', '<|im_end|>', '<|endoftext|>']
	},
	{
		id: 'openai/gpt-oss-20b',
		answer:
			`<|channel|>analysis<|message|>${REASONING}<|end|>` +
			`<|start|>assistant<|channel|>final<|message|>${VISIBLE}<|return|>`,
		followUp: `${FOLLOW_UP}<|end|><|start|>assistant<|channel|>final<|message|>Because only the rest is sold.<|return|>`,
		leak: `<|channel|>analysis<|message|>${COT_LEAK}<|end|><|start|>assistant<|channel|>final<|message|>${VISIBLE}<|return|>`,
		headerRest: '<|message|>',
		opensAnswer: (p) => p.endsWith('<|start|>assistant'),
		opensUserTurn: (p) => /<\|start\|>user(?:<\|message\|>)?$/.test(p),
		roleTags: /<\|(?:start|end|return|message|channel)\|>/,
		special: [
			'<|start|>',
			'<|end|>',
			'<|message|>',
			'<|channel|>',
			'<|constrain|>',
			'<|return|>',
			'<|call|>',
			'<|endoftext|>',
			'<|startoftext|>'
		]
	},
	{
		id: 'zai-org/GLM-4.7-Flash',
		answer: `${REASONING}</think>${VISIBLE}<|user|>Thanks!<|assistant|></think>You are welcome.`,
		followUp: `${FOLLOW_UP}<|assistant|></think>Because only the rest is sold.<|user|>Thanks`,
		// Without tags of its own: opening <|assistant|> would stop the turn at once (empty).
		leak: 'Is there anything else I can help you with?<|user|>Thanks!',
		headerRest: '',
		opensAnswer: (p) => p.endsWith('<|assistant|><think>'),
		opensUserTurn: (p) => p.endsWith('<|user|>'),
		roleTags: /<\|(?:user|assistant|observation)\|>/,
		special: [
			'[gMASK]',
			'<sop>',
			'<|system|>',
			'<|user|>',
			'<|assistant|>',
			'<|observation|>',
			'<|endoftext|>'
		]
	}
];

/**
 * The model: answers, then as the user either leaks (even seeds) or follows up (odd). After a header
 * cut at the role, a follow-up first writes the header's rest, as a model continuing it would.
 */
export function familyScript(f: Family): ScriptFn {
	return (req: ScriptRequest) => {
		if (req.kind === 'chat') return defaultScript(req);
		if (f.opensAnswer(req.prompt)) return f.answer;
		if (!f.opensUserTurn(req.prompt))
			throw new Error(`unexpected prompt tail ${req.prompt.slice(-40)}`);
		const cutAtRole = f.headerRest !== '' && !req.prompt.endsWith(f.headerRest);
		if (req.seed % 2 === 0) return f.leak;
		return cutAtRole ? f.headerRest + f.followUp : f.followUp;
	};
}

/** The family's tokenizer as vLLM sees it: its special tokens, and the ones generation ends on. */
export function vllmModel(f: Family, t: ChatTemplate): VllmModel {
	const eos = [t.eos_token, ...(t.extra_stop_tokens ?? [])].filter(
		(s): s is string => typeof s === 'string'
	);
	return { special: f.special, eos };
}
