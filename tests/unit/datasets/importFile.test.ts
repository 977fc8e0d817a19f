import { describe, expect, it } from 'vitest';
import {
	detectFormat,
	parseUserDataset,
	sniffDelimiter
} from '../../../src/lib/datasets/importFile.ts';
import { DatasetImportError } from '../../../src/lib/datasets/errors.ts';
import { readFixture, readJsonl } from '../../helpers/fixtures.ts';
import { demoItems } from '../../../src/lib/datasets/tasks/demo.ts';
import type { DatasetItem } from '../../../src/lib/probe/types.ts';
import { gsm8kLines, ifevalLines } from './hfFixtureRows.ts';

const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');

/** The problems a parse reports; fails the test if it did not throw DatasetImportError. */
function problemsOf(text: string, filename: string): string[] {
	try {
		parseUserDataset(text, filename);
	} catch (err) {
		expect(err).toBeInstanceOf(DatasetImportError);
		return (err as DatasetImportError).problems;
	}
	throw new Error('expected a DatasetImportError');
}

describe('parseUserDataset: the files people already have', () => {
	it('takes the GSM8K test file as it is: 1,319 gsm8k items with the whole solution as gold', () => {
		const items = parseUserDataset(readFixture('gsm8k/test.jsonl'), 'test.jsonl');
		const lines = gsm8kLines();
		expect(items).toHaveLength(1319);
		expect(items[0]).toStrictEqual({
			id: 'test-1',
			task: 'gsm8k',
			prompt: lines[0].question,
			gold: lines[0].answer
		});
		expect(items.every((it) => it.task === 'gsm8k')).toBe(true);
	});

	it('takes the IFEval input file as it is, with ids matching the built-in loader', () => {
		const items = parseUserDataset(readFixture('ifeval/input_data.jsonl'), 'input_data.jsonl');
		const lines = ifevalLines();
		expect(items).toHaveLength(541);
		expect(items[0].id).toBe(`ifeval-${lines[0].key}`);
		expect(items.map((it) => it.kwargs)).toStrictEqual(lines.map((l) => l.kwargs));
		expect(items.every((it) => it.task === 'ifeval')).toBe(true);
	});

	it('takes a file of bare JSON strings (the OASST prompt lottery) as open prompts', () => {
		const text = readFixture('oasst_conversations/prompt_lottery_en_250_text.jsonl');
		const items = parseUserDataset(text, 'prompt_lottery.jsonl');
		expect(items).toHaveLength(250);
		expect(items[0]).toStrictEqual({
			id: 'prompt_lottery-1',
			task: 'none',
			prompt: 'Can you tell me about GLaDOS?'
		});
	});

	it('takes chat exports ending on a user turn as normal items: the model answers that turn', () => {
		type Conv = { message_tree_id: string; messages: { role: string; content: string }[] };
		const convs = readJsonl<Conv>('oasst_conversations/conversations.jsonl').filter(
			(c) => c.messages[c.messages.length - 1].role === 'user'
		);
		expect(convs).toHaveLength(34);
		const items = parseUserDataset(jsonl(...convs), 'chats.jsonl');
		expect(items).toHaveLength(34);
		items.forEach((item, i) => {
			const msgs = convs[i].messages;
			// Earlier user → assistant turns are context, never a fixed answer with a reference.
			expect(item.prompt).toBe(msgs[msgs.length - 1].content);
			expect(item.history).toStrictEqual(msgs.slice(0, -1));
			expect(item.fixed_answer).toBeUndefined();
			expect(item.reference_turn).toBeUndefined();
			expect(item.task).toBe('none');
		});
	});

	it("takes a conversation ending on the assistant's reply with a 'reference_turn' as a reference item", () => {
		type Conv = { message_tree_id: string; messages: { role: string; content: string }[] };
		const convs = readJsonl<Conv>('oasst_conversations/conversations.jsonl')
			.filter((c) => c.messages[c.messages.length - 1].role === 'user')
			.map((c) => ({
				id: c.message_tree_id,
				messages: c.messages.slice(0, -1),
				reference_turn: c.messages[c.messages.length - 1].content
			}));
		const items = parseUserDataset(jsonl(...convs), 'threads.jsonl');
		expect(items).toHaveLength(34);
		items.forEach((item, i) => {
			const msgs = convs[i].messages;
			expect(item.prompt).toBe(msgs[msgs.length - 2].content);
			expect(item.fixed_answer).toBe(msgs[msgs.length - 1].content);
			expect(item.reference_turn).toBe(convs[i].reference_turn);
			expect(item.history ?? []).toStrictEqual(msgs.slice(0, -2));
		});
		const fifth = convs.findIndex((c) => c.messages.length === 4);
		expect(items[fifth].history).toHaveLength(2);
	});

	it("refuses a 'reference_turn' that does not follow an assistant reply, and an empty one", () => {
		const asked = [{ role: 'user', content: 'Is 7 prime?' }];
		const replied = [...asked, { role: 'assistant', content: 'Yes.' }];
		const text = jsonl(
			{ messages: asked, reference_turn: 'Why?' },
			{ messages: replied, reference_turn: ' ' },
			{ messages: [{ role: 'assistant', content: 'Hi.' }], reference_turn: 'Hello?' }
		);
		expect(problemsOf(text, 'threads.jsonl')).toEqual([
			"line 1: a 'reference_turn' answers the conversation's last assistant turn: 'messages' must end with a user message and the non-empty assistant reply to it",
			"line 2: 'reference_turn' must be a non-empty string",
			"line 3: a 'reference_turn' answers the conversation's last assistant turn: 'messages' must end with a user message and the non-empty assistant reply to it"
		]);
	});

	it('names the lines of a conversation file that do not parse or end on the assistant', () => {
		type Conv = { messages: { role: string; content: string }[] };
		const convs = readJsonl<Conv>('oasst_conversations/conversations.jsonl');
		const endsOnUser = convs.find((c) => c.messages.at(-1)?.role === 'user');
		const endsOnAssistant = convs.find((c) => c.messages.at(-1)?.role === 'assistant');
		const text = [
			jsonl(endsOnUser),
			'{"messages": [{"role": "user", "content": "hi"}',
			jsonl(endsOnAssistant)
		].join('\n');
		expect(problemsOf(text, 'chats.jsonl')).toEqual([
			expect.stringMatching(/^line 2: invalid JSON/),
			"line 3: 'messages' must end with a non-empty user message (the prompt), or with the assistant's reply and a 'reference_turn' (the person's real next turn)"
		]);
	});

	// Hand-written conversations in HealthBench's public shape (`prompt_id`, a message list in
	// `prompt`, rubrics beside it): every one, multi-turn or not, is a normal item.
	it("takes HealthBench's conversations as normal items: the model answers the last user turn", () => {
		const healthbench = [
			{
				prompt_id: 'hb-1',
				prompt: [
					{ role: 'user', content: 'I have had a headache for three days.' },
					{ role: 'assistant', content: 'How bad is it, and have you had a fever?' },
					{ role: 'user', content: 'No fever, but light hurts my eyes.' }
				],
				rubrics: [{ criterion: 'Advises urgent care for photophobia', points: 8 }],
				example_tags: ['theme:emergency_referrals']
			},
			{
				prompt_id: 'hb-2',
				prompt: [{ role: 'user', content: 'Is ibuprofen safe with coffee?' }],
				rubrics: [],
				example_tags: []
			},
			{
				prompt_id: 'hb-3',
				prompt: [
					{ role: 'system', content: 'You are a clinician assistant.' },
					{ role: 'user', content: 'Dose for a 20 kg child?' },
					{ role: 'assistant', content: 'Of which medicine?' },
					{ role: 'user', content: 'Paracetamol.' }
				]
			}
		];
		const items = parseUserDataset(jsonl(...healthbench), 'oss_eval.jsonl');
		expect(items).toStrictEqual([
			{
				id: 'hb-1',
				task: 'none',
				prompt: 'No fever, but light hurts my eyes.',
				history: healthbench[0].prompt.slice(0, 2)
			},
			{ id: 'hb-2', task: 'none', prompt: 'Is ibuprofen safe with coffee?' },
			{
				id: 'hb-3',
				task: 'none',
				prompt: 'Paracetamol.',
				history: healthbench[2].prompt.slice(0, 3)
			}
		]);
	});

	// Hand-written conversations in Coval's public shape (`prompt_id`, the conversation as an object
	// with `messages` in `prompt`, candidate responses beside it, which the probe does not use).
	it("takes Coval's conversations as normal items, a 'developer' turn as the system turn", () => {
		const coval = [
			{
				prompt_id: 'cv-1',
				prompt: {
					id: 'cv-1',
					messages: [
						{ role: 'user', content: 'My neighbour keeps parking in my spot.' },
						{ role: 'assistant', content: 'Have you tried talking to them?' },
						{ role: 'user', content: 'Yes, twice. Should I call the landlord?' }
					]
				},
				responses: [
					{ response_index: 'A', messages: [{ role: 'assistant', content: 'Yes.' }] },
					{ response_index: 'B', messages: [{ role: 'assistant', content: 'Not yet.' }] }
				]
			},
			{
				prompt_id: 'cv-2',
				prompt: {
					messages: [
						{ role: 'developer', content: 'Be brief.' },
						{ role: 'user', content: 'Is it rude to recline my seat on a plane?' }
					]
				}
			}
		];
		const items = parseUserDataset(jsonl(...coval), 'comparisons.jsonl');
		expect(items).toStrictEqual([
			{
				id: 'cv-1',
				task: 'none',
				prompt: 'Yes, twice. Should I call the landlord?',
				history: coval[0].prompt.messages.slice(0, 2)
			},
			{
				id: 'cv-2',
				task: 'none',
				prompt: 'Is it rude to recline my seat on a plane?',
				history: [{ role: 'system', content: 'Be brief.' }]
			}
		]);
		const broken = jsonl({ prompt_id: 'cv-3', prompt: { messages: [{ role: 'user' }] } });
		expect(problemsOf(broken, 'comparisons.jsonl')).toEqual([
			"line 1: prompt.messages[0] needs a string 'content'"
		]);
	});

	it('re-imports items carrying a fixed answer and reference turn, and refuses a reference alone', () => {
		const item = {
			id: 't1',
			task: 'none',
			prompt: 'Hi?',
			fixed_answer: 'Hello!',
			reference_turn: 'Bye.'
		};
		expect(parseUserDataset(jsonl(item), 'x.jsonl')).toStrictEqual([item]);
		const text = jsonl({ prompt: 'Hi?', reference_turn: 'Bye.' }, { prompt: 'p', fixed_answer: 3 });
		expect(problemsOf(text, 'x.jsonl')).toEqual([
			"line 1: a 'reference_turn' answers a 'fixed_answer': the record needs both",
			"line 2: 'fixed_answer' must be a non-empty string"
		]);
	});
});

describe('parseUserDataset: record shapes', () => {
	it.each([
		[{ prompt: 'Say hi' }, { task: 'none', prompt: 'Say hi' }],
		[
			{ prompt: 'What is 6*7?', gold: '42' },
			{ task: 'gsm8k', prompt: 'What is 6*7?', gold: '42' }
		],
		[
			{ prompt: 'Capital of France?', gold: 'Paris' },
			{ task: 'none', gold: 'Paris' }
		],
		[
			{ question: 'q', answer: 'so 3+4=7\n#### 7' },
			{ task: 'gsm8k', gold: 'so 3+4=7\n#### 7' }
		],
		[
			{ question: 'q', answer: 'It depends.' },
			{ task: 'none', gold: 'It depends.' }
		],
		[
			{ question: 'q', answer: 1250 },
			{ task: 'gsm8k', gold: '1250' }
		],
		[
			{ prompt: 'p', gold: '-3.5', task: 'gsm8k' },
			{ task: 'gsm8k', gold: '-3.5' }
		],
		[{ prompt: 'p', task: 'none' }, { task: 'none' }],
		[
			{ prompt: 'p', task: 'ifeval', instruction_ids: ['punctuation:no_comma'] },
			{ task: 'ifeval', instruction_ids: ['punctuation:no_comma'], kwargs: [{}] }
		]
	])('%j → %j', (record, expected) => {
		const [item] = parseUserDataset(jsonl(record), 'x.jsonl');
		expect(item).toMatchObject(expected);
	});

	it('renders multiple choice options as "A. …" lines and stores the gold letter', () => {
		const [item] = parseUserDataset(
			jsonl({
				question: 'Which is a mammal?',
				choices: ['Shark', 'Dolphin', 'Trout'],
				answer: 'B'
			}),
			'mc.jsonl'
		);
		expect(item).toStrictEqual({
			id: 'mc-1',
			task: 'multiple_choice',
			prompt: 'Which is a mammal?\n\nA. Shark\nB. Dolphin\nC. Trout',
			choices: ['Shark', 'Dolphin', 'Trout'],
			gold: 'B'
		});
	});

	it.each([
		['b', 'B'],
		[1, 'B'],
		['1', 'B'],
		['Dolphin', 'B'],
		[0, 'A']
	])('reads a multiple choice answer of %j as %s', (answer, letter) => {
		const [item] = parseUserDataset(
			jsonl({ question: 'q', choices: ['Shark', 'Dolphin', 'Trout'], answer }),
			'mc.jsonl'
		);
		expect(item.gold).toBe(letter);
	});

	it('re-imports items exported by the app unchanged (choices are not rendered twice)', () => {
		const exported: DatasetItem[] = [
			...demoItems(),
			{
				id: 'mc-7',
				task: 'multiple_choice',
				prompt: 'Pick one\n\nA. red\nB. blue',
				choices: ['red', 'blue'],
				gold: 'B'
			},
			{
				id: 'ifeval-1001',
				task: 'ifeval',
				prompt: 'No commas please.',
				instruction_ids: ['punctuation:no_comma'],
				kwargs: [{}]
			},
			{
				id: 'chat-1',
				task: 'none',
				prompt: 'And in winter?',
				history: [
					{ role: 'user', content: 'What grows in spring?' },
					{ role: 'assistant', content: 'Peas and lettuce.' }
				]
			}
		];
		expect(parseUserDataset(jsonl(...exported), 'export.jsonl')).toStrictEqual(exported);
	});

	it('takes ids from an id field (strings or numbers) and otherwise from file name and line', () => {
		const text = `${jsonl({ id: 'alpha', prompt: 'a' })}\n\n${jsonl({ id: 17, prompt: 'b' }, { prompt: 'c' })}`;
		const items = parseUserDataset(text, 'data/my-set.v2.jsonl');
		expect(items.map((it) => it.id)).toEqual(['alpha', '17', 'my-set.v2-4']);
	});

	it('reads a .json file holding a list', () => {
		const items = parseUserDataset(JSON.stringify([{ prompt: 'a' }, { prompt: 'b' }]), 'set.json');
		expect(items.map((it) => it.id)).toEqual(['set-1', 'set-2']);
	});

	it('ignores a byte-order mark and Windows line endings', () => {
		const items = parseUserDataset(
			`\uFEFF${jsonl({ prompt: 'a' })}\r\n${jsonl({ prompt: 'b' })}\r\n`,
			'w.jsonl'
		);
		expect(items.map((it) => it.prompt)).toEqual(['a', 'b']);
	});
});

describe('parseUserDataset: precise errors', () => {
	it('reports every bad line of a JSONL file at once, each with its line number', () => {
		const text = [
			jsonl({ id: 'a', prompt: 'fine' }),
			'{"question": "unterminated"',
			jsonl({ foo: 1 }),
			'',
			jsonl({ id: 'a', prompt: 'again' }),
			'[1, 2]',
			jsonl({ prompt: 'p', task: 'math' }),
			jsonl({ prompt: '   ' })
		].join('\n');
		const problems = problemsOf(text, 'bad.jsonl');
		expect(problems).toHaveLength(6);
		expect(problems[0]).toMatch(/^line 2: invalid JSON \(.+\)$/);
		expect(problems.slice(1)).toEqual([
			"line 3: missing 'question' or 'prompt'",
			"line 5: duplicate id 'a' (first used on line 1)",
			'line 6: expected a JSON object, got a list',
			'line 7: \'task\' must be one of gsm8k, multiple_choice, ifeval, none, got "math"',
			"line 8: 'prompt' is empty"
		]);
	});

	it.each([
		[{ question: 'q', choices: ['x', 'y'], answer: 'C' }, '\'answer\' "C" is not a letter A–B'],
		[{ question: 'q', choices: ['only one'], answer: 'A' }, "'choices' must have 2 to 26 options"],
		[{ question: 'q', choices: ['x', 'y'] }, "missing 'answer' for the choices"],
		[{ messages: [] }, "'messages' must be a non-empty list"],
		[
			{
				messages: [
					{ role: 'user', content: 'hi' },
					{ role: 'assistant', content: 'hello' }
				]
			},
			"'messages' must end with a non-empty user message (the prompt), or with the assistant's reply"
		],
		[{ messages: [{ role: 'robot', content: 'x' }] }, 'messages[0] needs a role'],
		[{ prompt: 'p', task: 'gsm8k' }, "a gsm8k item needs an 'answer'"],
		[{ prompt: 'p', task: 'gsm8k', gold: 'seven' }, "a gsm8k 'gold' must be a number"],
		[{ prompt: 'p', task: 'multiple_choice', gold: 'x' }, 'must be a capital letter'],
		[
			{ prompt: 'p', instruction_ids: ['a'], kwargs: [{}, {}] },
			"'kwargs' must be a list of objects"
		],
		[{ prompt: 7 }, "'prompt' must be a string"],
		[{ id: '', prompt: 'p' }, "'id' must be a non-empty string or a number"],
		[{ prompt: 'p', history: [{ role: 'user' }] }, "history[0] needs a string 'content'"],
		[{ prompt: 'p', choices: ['x', 'y'], answer: 'A', task: 'gsm8k' }, "'choices' only go with"]
	])('rejects %j', (record, message) => {
		const problems = problemsOf(jsonl(record), 'r.jsonl');
		expect(problems).toHaveLength(1);
		expect(problems[0].startsWith('line 1: ')).toBe(true);
		expect(problems[0]).toContain(message);
	});

	it('names the file and lists the first ten problems in the message, counting the rest', () => {
		const text = Array.from({ length: 13 }, () => jsonl({ nothing: true })).join('\n');
		let error: DatasetImportError | undefined;
		try {
			parseUserDataset(text, 'many.jsonl');
		} catch (err) {
			error = err as DatasetImportError;
		}
		expect(error?.name).toBe('DatasetImportError');
		expect(error?.problems).toHaveLength(13);
		expect(error?.message.startsWith('Could not import many.jsonl:\n')).toBe(true);
		expect(error?.message).toContain("- line 10: missing 'question' or 'prompt'");
		expect(error?.message).not.toContain('line 11:');
		expect(error?.message.endsWith('- … and 3 more')).toBe(true);
	});

	it.each([
		['', 'empty.jsonl'],
		['\n\n  \n', 'blank.jsonl'],
		['[]', 'none.json']
	])('says an empty file has no items (%j)', (text, name) => {
		expect(problemsOf(text, name)).toEqual(['the file has no items']);
	});

	it('rejects a .json file that is not a list, and broken JSON, without line numbers', () => {
		expect(problemsOf('[{"prompt": "a"},', 'broken.json')[0]).toMatch(/^invalid JSON \(/);
		expect(problemsOf('{"prompt": "a"}\n{"prompt": "b"', 'half.json')[0]).toMatch(
			/^line 2: invalid JSON/
		);
	});
});

describe('parseUserDataset: CSV', () => {
	it('reads a header row and quoted cells with commas, quotes and newlines', () => {
		const csv = [
			'prompt,gold,task',
			'"Add 2, 3 and 4.",9,gsm8k',
			'"She said ""hello""\nand left. Why?",,none',
			'Plain question?,,'
		].join('\n');
		const items = parseUserDataset(csv, 'class.csv');
		expect(items).toStrictEqual([
			{ id: 'class-2', task: 'gsm8k', prompt: 'Add 2, 3 and 4.', gold: '9' },
			{ id: 'class-3', task: 'none', prompt: 'She said "hello"\nand left. Why?' },
			{ id: 'class-4', task: 'none', prompt: 'Plain question?' }
		]);
	});

	it('numbers rows as a spreadsheet does, counting skipped blank rows', () => {
		const csv = 'question,answer\nfirst?,1\n\n,\nsecond?,#### 2\nthird?,3\nnope,\n';
		const problems = problemsOf(`${csv}id-less,row\n"",5\n`, 'rows.csv');
		expect(problems).toEqual(["row 9 (CSV): missing 'question' or 'prompt'"]);
		const items = parseUserDataset(csv, 'rows.csv');
		expect(items.map((it) => it.id)).toEqual(['rows-2', 'rows-5', 'rows-6', 'rows-7']);
		expect(items[3]).toMatchObject({ task: 'none', prompt: 'nope' });
	});

	it('matches headers case-insensitively and handles a BOM and CRLF', () => {
		const items = parseUserDataset('\uFEFFQuestion,Answer\r\nHow many?,#### 4\r\n', 'excel.csv');
		expect(items).toStrictEqual([
			{ id: 'excel-2', task: 'gsm8k', prompt: 'How many?', gold: '#### 4' }
		]);
	});

	it('reads multiple choice options from a "a | b | c" or JSON list cell', () => {
		const csv = 'question,choices,answer\nPick one,red | green | blue,C\nAgain,"[""x"",""y""]",x\n';
		const items = parseUserDataset(csv, 'mc.csv');
		expect(items[0]).toMatchObject({ gold: 'C', choices: ['red', 'green', 'blue'] });
		expect(items[0].prompt).toBe('Pick one\n\nA. red\nB. green\nC. blue');
		expect(items[1]).toMatchObject({ gold: 'A', choices: ['x', 'y'] });
	});

	it('reads a messages column holding JSON', () => {
		const messages = JSON.stringify([
			{ role: 'user', content: 'hi' },
			{ role: 'assistant', content: 'hello' },
			{ role: 'user', content: 'tell me a joke' }
		]);
		const csv = `messages\n"${messages.replaceAll('"', '""')}"\n`;
		const [item] = parseUserDataset(csv, 'chat.csv');
		expect(item).toMatchObject({
			prompt: 'tell me a joke',
			history: [
				{ role: 'user', content: 'hi' },
				{ role: 'assistant', content: 'hello' }
			]
		});
		expect(item.reference_turn).toBeUndefined();
	});

	it('reads semicolon-separated files, as Excel writes them in many locales', () => {
		const items = parseUserDataset('prompt;gold\nHow many legs, in all?;8\nAnd now?;4\n', 'eu.csv');
		expect(items.map((it) => it.gold)).toEqual(['8', '4']);
		expect(items[0].prompt).toBe('How many legs, in all?');
	});

	it('reads tab-separated files', () => {
		const items = parseUserDataset('prompt\tgold\nSum 1 and 1?\t2\n', 'data.tsv');
		expect(items).toStrictEqual([
			{ id: 'data-2', task: 'gsm8k', prompt: 'Sum 1 and 1?', gold: '2' }
		]);
	});

	it('says once when the header has no prompt column, listing the columns it found', () => {
		expect(problemsOf('text,label\nhello,1\n', 'odd.csv')).toEqual([
			"row 1 (CSV): the header needs a 'prompt', 'question' or 'messages' column (found: text, label)"
		]);
	});

	it('rejects a row with more cells than the header has columns', () => {
		expect(problemsOf('prompt,gold\na,1\nb,2,extra\n', 'wide.csv')).toEqual([
			"row 3 (CSV): 3 cells but the header has 2 columns (put text containing ',' in double quotes)"
		]);
	});

	it('reports an unterminated quote with its row', () => {
		const problems = problemsOf('prompt\nok\n"never closed\n', 'quote.csv');
		expect(problems.some((p) => /^row 3 \(CSV\): .*[Qq]uote/.test(p))).toBe(true);
	});
});

describe('detectFormat', () => {
	it.each([
		['a.jsonl', '{}', 'jsonl'],
		['a.NDJSON', '{}', 'jsonl'],
		['a.json', '[{}]', 'json'],
		['a.json', '{}\n{}', 'jsonl'],
		['a.csv', '{"looks": "like json"}', 'csv'],
		['a.tsv', 'x', 'tsv'],
		['a.txt', '  {"prompt": 1}', 'jsonl'],
		['a.txt', '"a string"', 'jsonl'],
		['a.txt', '[1]', 'json'],
		['noext', 'prompt,gold', 'csv']
	])('%s starting %j is %s', (name, text, format) => {
		expect(detectFormat(text, name)).toBe(format);
	});
});

describe('sniffDelimiter', () => {
	it.each([
		['prompt,gold\na;b;c,1', ','],
		['prompt;gold;task\nx,y', ';'],
		['prompt\tgold', '\t'],
		['prompt', ','],
		['"a;b;c",gold', ','],
		['\n\nquestion;answer', ';']
	])('reads the header of %j as %j', (text, delimiter) => {
		expect(sniffDelimiter(text)).toBe(delimiter);
	});
});
