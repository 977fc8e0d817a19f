/**
 * Our Punkt sentence splitter and NLTK word tokenizer against the real NLTK 3.10.3 (English
 * Punkt model), recorded by tests/fixtures/nltk-reference/punkt/make_reference.py:
 * (a) our own hard cases with NLTK's full outputs (cases.jsonl), including NLTKWordTokenizer on
 *     the unsplit text;
 * (b) every GSM8K question and answer, IFEval prompt and OASST message of ../shared/fixtures,
 *     where only the text's identifier and the sha256 of NLTK's outputs are stored (real.tsv).
 * Each also with curlyQuotes false against NLTK 3.9.2's quote handling (IFBench's pinned
 * version; emulated by make_reference.py, see PROVENANCE.md).
 * Both run on the pruned model in punkt_tab/english/, which the script proved gives NLTK the
 * same outputs as the full model on all these texts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePunktTab, sentTokenize } from '../../../src/lib/nlp/punkt.ts';
import { treebankWordTokenize, wordTokenize } from '../../../src/lib/nlp/wordTokenize.ts';
import { readFixture } from '../../helpers/fixtures.ts';
import { digest } from './sharedTexts.ts';

const DIR = new URL('../../fixtures/nltk-reference/punkt/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, DIR), 'utf8');

const PARAMS = parsePunktTab({
	abbrevTypes: read('punkt_tab/english/abbrev_types.txt'),
	collocations: read('punkt_tab/english/collocations.tab'),
	sentStarters: read('punkt_tab/english/sent_starters.txt'),
	orthoContext: read('punkt_tab/english/ortho_context.tab')
});

interface Case {
	text: string;
	sents: string[];
	words: string[];
	/** word_tokenize(text, preserve_line=True): NLTKWordTokenizer on the whole text. */
	line: string[];
	/** NLTK 3.9.2's quote handling (before PR #3728), where it gives other outputs. */
	pre3728?: { sents: string[]; words: string[] };
}

const CASES = read('cases.jsonl')
	.split('\n')
	.filter((line) => line !== '')
	.map((line) => JSON.parse(line) as Case);

describe('Punkt and word_tokenize on our own hard cases', () => {
	it('has the recorded cases, including the empty text, emoji and every model abbreviation', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(500);
		expect(CASES.map((c) => c.text)).toContain('');
		expect(CASES.some((c) => /\p{Extended_Pictographic}/u.test(c.text))).toBe(true);
		const abbreviationCases = CASES.filter((c) => / Jones there\. Then /.test(c.text)).length;
		expect(abbreviationCases).toBe([...PARAMS.abbrevTypes].filter((a) => a.trim()).length);
	});

	it('sentTokenize gives exactly nltk.sent_tokenize', () => {
		const wrong = CASES.filter((c) => {
			const ours = sentTokenize(PARAMS, c.text);
			return JSON.stringify(ours) !== JSON.stringify(c.sents);
		}).map((c) => ({ text: c.text, nltk: c.sents, ours: sentTokenize(PARAMS, c.text) }));
		expect(wrong).toEqual([]);
	});

	it('wordTokenize gives exactly nltk.word_tokenize', () => {
		const wrong = CASES.filter((c) => {
			const ours = wordTokenize(PARAMS, c.text);
			return JSON.stringify(ours) !== JSON.stringify(c.words);
		}).map((c) => ({ text: c.text, nltk: c.words, ours: wordTokenize(PARAMS, c.text) }));
		expect(wrong).toEqual([]);
	});

	it("with curlyQuotes false, gives NLTK 3.9.2's outputs (before PR #3728)", () => {
		const OLD = { curlyQuotes: false };
		expect(CASES.filter((c) => c.pre3728).length).toBeGreaterThanOrEqual(10);
		const wrong = CASES.filter((c) => {
			const expected = c.pre3728 ?? { sents: c.sents, words: c.words };
			const ours = {
				sents: sentTokenize(PARAMS, c.text, OLD),
				words: wordTokenize(PARAMS, c.text, OLD)
			};
			return JSON.stringify(ours) !== JSON.stringify(expected);
		}).map((c) => ({
			text: c.text,
			nltk: c.pre3728 ?? '(as 3.10.3)',
			ours: { sents: sentTokenize(PARAMS, c.text, OLD), words: wordTokenize(PARAMS, c.text, OLD) }
		}));
		expect(wrong).toEqual([]);
	});

	it('treebankWordTokenize gives exactly NLTKWordTokenizer.tokenize (preserve_line=True)', () => {
		const wrong = CASES.filter((c) => {
			const ours = treebankWordTokenize(c.text);
			return JSON.stringify(ours) !== JSON.stringify(c.line);
		}).map((c) => ({ text: c.text, nltk: c.line, ours: treebankWordTokenize(c.text) }));
		expect(wrong).toEqual([]);
	});
});

interface RealRow {
	file: string;
	line: number;
	part: string;
	sents: string;
	words: string;
	sentences: number;
	/** Hashes with NLTK 3.9.2's quote handling; '' where they equal the 3.10.3 ones. */
	pre3728Sents: string;
	pre3728Words: string;
}

const REAL: RealRow[] = read('real.tsv')
	.split('\n')
	.slice(1)
	.filter((line) => line !== '')
	.map((line) => {
		const [file, lineNo, part, sents, words, sentences, pre3728Sents, pre3728Words] =
			line.split('\t');
		return {
			file,
			line: Number(lineNo),
			part,
			sents,
			words,
			sentences: Number(sentences),
			pre3728Sents,
			pre3728Words
		};
	});

interface TreeMessage {
	message_id: string;
	text: string;
	replies?: TreeMessage[];
}

function* treeMessages(node: TreeMessage): Generator<TreeMessage> {
	yield node;
	for (const reply of node.replies ?? []) yield* treeMessages(reply);
}

const fileLines = new Map<string, string[]>();

/** The text a row names, read from ../shared/fixtures (file, 1-based line, field or message). */
function realText(row: RealRow): string {
	let lines = fileLines.get(row.file);
	if (!lines) {
		lines = readFixture(row.file).split('\n');
		fileLines.set(row.file, lines);
	}
	const value = JSON.parse(lines[row.line - 1]) as unknown;
	if (row.file.endsWith('en_100_tree.jsonl')) {
		const root = (value as { prompt: TreeMessage }).prompt;
		const message = [...treeMessages(root)].find((m) => m.message_id === row.part);
		if (!message) throw new Error(`${row.file}:${row.line} has no message ${row.part}`);
		return message.text;
	}
	if (row.part === '') return value as string;
	return (value as Record<string, string>)[row.part];
}

describe('Punkt and word_tokenize on the real texts of ../shared/fixtures', () => {
	it('covers every GSM8K item, IFEval prompt and OASST message', () => {
		const perFile = new Map<string, number>();
		for (const row of REAL) perFile.set(row.file, (perFile.get(row.file) ?? 0) + 1);
		expect(Object.fromEntries(perFile)).toEqual({
			'gsm8k/test.jsonl': 2 * 1319,
			'ifeval/input_data.jsonl': 541,
			'oasst_conversations/en_100_tree.jsonl': 1167,
			'oasst_conversations/prompt_lottery_en_250_text.jsonl': 250
		});
	});

	it('gives the same sentences and words as NLTK on every text', () => {
		const wrong: unknown[] = [];
		for (const row of REAL) {
			const text = realText(row);
			expect(typeof text, `${row.file}:${row.line} ${row.part}`).toBe('string');
			const sents = sentTokenize(PARAMS, text);
			const words = wordTokenize(PARAMS, text);
			if (digest(sents) !== row.sents || digest(words) !== row.words) {
				const id = `${row.file}:${row.line}${row.part ? ` ${row.part}` : ''}`;
				wrong.push({
					id,
					sentencesDiffer: digest(sents) !== row.sents,
					nltkSentenceCount: row.sentences,
					ours: { sents, words: digest(words) === row.words ? '(same)' : words }
				});
			}
		}
		expect(wrong).toEqual([]);
	});

	it("with curlyQuotes false, gives NLTK 3.9.2's outputs on every text", () => {
		const OLD = { curlyQuotes: false };
		const wrong: unknown[] = [];
		for (const row of REAL) {
			const text = realText(row);
			const sents = sentTokenize(PARAMS, text, OLD);
			const words = wordTokenize(PARAMS, text, OLD);
			if (
				digest(sents) !== (row.pre3728Sents || row.sents) ||
				digest(words) !== (row.pre3728Words || row.words)
			) {
				wrong.push({ id: `${row.file}:${row.line} ${row.part}`, ours: { sents, words } });
			}
		}
		expect(REAL.filter((r) => r.pre3728Sents).length).toBe(1);
		expect(wrong).toEqual([]);
	});
});
