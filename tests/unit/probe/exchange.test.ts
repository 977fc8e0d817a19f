import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { problemsOf } from '../../helpers/exchangeProblems.ts';
import {
	bundleToFiles,
	filesToBundle,
	MAX_PROBLEMS,
	parseAnswersJsonl,
	parseRecordsJsonl,
	recordsToCsv,
	recordsToJsonl,
	validateBundle,
	validateManifest,
	validateRecord
} from '../../../src/lib/probe/exchange.ts';
import { bundleToRunFile, runFileToBundle } from '../../../src/lib/probe/runFile.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import {
	makeAnnotation,
	makeAnswer,
	makeBundle,
	makeManifest,
	makeRecord,
	makeRecords
} from '../../helpers/factories.ts';

const line = (x: unknown) => JSON.stringify(x);

describe('recordsToJsonl', () => {
	it('writes one record per line with a trailing newline', () => {
		const text = recordsToJsonl(makeRecords(3));
		expect(text.endsWith('\n')).toBe(true);
		expect(text.split('\n')).toHaveLength(4);
		expect(text.split('\n')[3]).toBe('');
	});

	it('writes nothing for no records', () => {
		expect(recordsToJsonl([])).toBe('');
	});

	it('writes the same text whatever order the keys were built in', () => {
		const record = makeRecord();
		const shuffled = Object.fromEntries(Object.entries(record).reverse()) as ProbeRecord;
		expect(recordsToJsonl([shuffled])).toBe(recordsToJsonl([record]));
	});

	it('writes known fields in contract order, then unknown fields sorted', () => {
		const record = { ...makeRecord(), zeta: 1, alpha: { b: 2, a: 1 } } as ProbeRecord;
		const keys = Object.keys(JSON.parse(recordsToJsonl([record])));
		expect(keys.slice(0, 3)).toEqual(['run_id', 'key', 'item_id']);
		expect(keys.slice(-3)).toEqual(['created_at', 'alpha', 'zeta']);
		expect(recordsToJsonl([record])).toContain('"alpha":{"a":1,"b":2}');
	});

	it('round-trips through parseRecordsJsonl unchanged', () => {
		const records = makeRecords(10);
		expect(parseRecordsJsonl(recordsToJsonl(records)).records).toEqual(records);
	});
});

describe('parseRecordsJsonl', () => {
	it('keeps unknown fields so files from newer versions survive', () => {
		const text = line({ ...makeRecord(), reasoning_tokens: 17 });
		const [record] = parseRecordsJsonl(text).records;
		expect((record as unknown as Record<string, unknown>).reasoning_tokens).toBe(17);
	});

	it('drops secret fields while reading', () => {
		const [record] = parseRecordsJsonl(line({ ...makeRecord(), api_key: 'sk-x' })).records;
		expect(record).toEqual(makeRecord());
	});

	it('accepts records without optional fields (judge_usage, judge_prompt_hash)', () => {
		const { judge_usage: _u, judge_prompt_hash: _h, ...bare } = makeRecord();
		expect(parseRecordsJsonl(line(bare)).records).toHaveLength(1);
	});

	it('accepts CRLF line endings, a byte order mark and blank lines', () => {
		const [a, b] = makeRecords(2);
		const text = `\uFEFF${line(a)}\r\n\r\n${line(b)}\r\n`;
		expect(parseRecordsJsonl(text).records).toEqual([a, b]);
	});

	const INVALID: [string, Record<string, unknown>, string][] = [
		['a string temperature', { temperature: 'hot' }, 'field temperature must be a number'],
		['a NaN-like null temperature', { temperature: null }, 'field temperature must be a number'],
		['an unknown label', { label: 'excellent' }, 'field label must be one of genuine_followup'],
		['an unknown judge label', { judge_label: 'bad' }, 'field judge_label must be one of'],
		['an unknown rule label', { rule_label: 'maybe' }, 'field rule_label must be one of'],
		['an unknown perturbation', { perturbation: 'shuffle' }, 'field perturbation must be one of'],
		['a negative sample', { sample: -1 }, 'field sample must be a non-negative integer'],
		['a fractional seed', { seed: 1.5 }, 'field seed must be an integer'],
		['a string for correct', { correct: 'yes' }, 'field correct must be a boolean or null'],
		['an empty key', { key: '' }, 'field key must be a non-empty string'],
		['a bad label source', { label_source: 'human' }, 'field label_source must be one of'],
		[
			'string usage tokens',
			{ usage: { prompt_tokens: '1', completion_tokens: 1 } },
			'field usage.prompt_tokens must be a number'
		],
		['usage that is not an object', { usage: [1, 2] }, 'field usage must be an object'],
		[
			'a bad judge usage',
			{ judge_usage: { prompt_tokens: 1 } },
			'field judge_usage.completion_tokens is missing'
		],
		['an unknown task', { task: 'gpqa' }, 'field task must be one of'],
		['a bad finish reason', { finish_reason: 'timeout' }, 'field finish_reason must be one of']
	];
	it.each(INVALID)('rejects %s with a precise message', (_name, patch, message) => {
		const problems = problemsOf(() => parseRecordsJsonl(line({ ...makeRecord(), ...patch })));
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(/^line 1: /);
		expect(problems[0]).toContain(message);
	});

	it('reports a missing required field by name', () => {
		const { user_turn: _drop, ...rest } = makeRecord();
		expect(problemsOf(() => parseRecordsJsonl(line(rest)))).toEqual([
			'line 1: field user_turn is missing'
		]);
	});

	it('counts line numbers across blank lines', () => {
		const [a, b] = makeRecords(2);
		const text = `${line(a)}\n\n${line({ ...b, temperature: 'x' })}\n`;
		expect(problemsOf(() => parseRecordsJsonl(text))).toEqual([
			'line 3: field temperature must be a number'
		]);
	});

	it('lists JSON and field problems in file order', () => {
		const text = [
			line({ ...makeRecord(), seed: 'x' }),
			'{',
			line({ ...makeRecord(), key: 'k', sample: -1 })
		].join('\n');
		expect(problemsOf(() => parseRecordsJsonl(text))).toEqual([
			'line 1: field seed must be an integer',
			expect.stringMatching(/^line 2: not valid JSON/),
			'line 3: field sample must be a non-negative integer'
		]);
	});

	it('names non-JSON and non-object lines', () => {
		const text = `${line(makeRecord())}\n{"run_id": \n[1,2]\n42\n`;
		const problems = problemsOf(() => parseRecordsJsonl(text));
		expect(problems[0]).toMatch(/^line 2: not valid JSON/);
		expect(problems.slice(1)).toEqual([
			'line 3: expected a JSON object',
			'line 4: expected a JSON object'
		]);
	});

	it('rejects a duplicate (run_id, key) and points at the first occurrence', () => {
		const a = makeRecord();
		const text = [a, makeRecord({ item_id: 'x' }), { ...a, user_turn: 'again' }]
			.map(line)
			.join('\n');
		expect(problemsOf(() => parseRecordsJsonl(text))).toEqual([
			`line 3: duplicate key "${a.key}" (first at line 1)`
		]);
	});

	it('allows the same key in two different runs', () => {
		const text = [makeRecord(), makeRecord({ run_id: 'run-b' })].map(line).join('\n');
		expect(parseRecordsJsonl(text).records).toHaveLength(2);
	});

	it('is all-or-nothing: one bad line among many valid ones fails the whole file', () => {
		const records: unknown[] = makeRecords(50);
		records[37] = { ...(records[37] as object), label: 'nope' };
		const problems = problemsOf(() => parseRecordsJsonl(records.map(line).join('\n')));
		expect(problems).toEqual([expect.stringMatching(/^line 38: field label/)]);
	});

	it(`stops after ${MAX_PROBLEMS} problems instead of listing thousands`, () => {
		const text = Array.from({ length: 5000 }, () => 'not json').join('\n');
		const problems = problemsOf(() => parseRecordsJsonl(text));
		expect(problems).toHaveLength(MAX_PROBLEMS + 1);
		expect(problems[MAX_PROBLEMS]).toBe(`stopped after ${MAX_PROBLEMS} problems`);
		expect(problems[MAX_PROBLEMS - 1]).toMatch(/^line 20: /);
	});

	it('throws a named error whose message quotes the first problems', () => {
		try {
			parseRecordsJsonl('oops');
			expect.unreachable();
		} catch (e) {
			expect((e as Error).name).toBe('ExchangeError');
			expect((e as Error).message).toContain('line 1: not valid JSON');
		}
	});
});

describe('parseAnswersJsonl', () => {
	it('reads the answers file the CLI writes beside the records', () => {
		const answers = [makeAnswer(), makeAnswer({ item_id: 'gsm8k-1', correct: null })];
		expect(parseAnswersJsonl(answers.map(line).join('\n') + '\n').answers).toEqual(answers);
	});

	it('reports bad and duplicate answers by line', () => {
		const text = [makeAnswer(), { ...makeAnswer(), seed: 'x' }, makeAnswer()].map(line).join('\n');
		expect(problemsOf(() => parseAnswersJsonl(text))).toEqual([
			'line 2: field seed must be an integer',
			'line 3: duplicate answer ["run-a","gsm8k-0"]'
		]);
	});
});

describe('validateRecord and validateManifest', () => {
	it('find nothing wrong with well-formed data', () => {
		expect(validateRecord(makeRecord())).toEqual([]);
		expect(validateManifest(makeManifest())).toEqual([]);
	});

	it('reject values that are not objects', () => {
		for (const x of [null, 3, 'record', [makeRecord()]]) {
			expect(validateRecord(x)).toEqual(['expected a JSON object']);
			expect(validateManifest(x)).toEqual(['expected a JSON object']);
		}
	});

	it('list every problem of a record, not just the first', () => {
		const problems = validateRecord({ ...makeRecord(), temperature: '1', label: 'x', sample: 0.5 });
		expect(problems).toHaveLength(3);
	});

	it('check nested manifest config fields with dotted paths', () => {
		const m = makeManifest();
		const bad = { ...m, config: { ...m.config, temperatures: [0, 'hot'], generator: { id: 7 } } };
		expect(validateManifest(bad)).toEqual([
			'field config.generator.id must be a non-empty string',
			'field config.temperatures must be an array of numbers'
		]);
	});

	it('check the task prompt, samples at T=0 and answer finish reason when present', () => {
		const m = makeManifest();
		const task_prompt = { preset: 'paper', template: '{question}\n\nSteps.', system: '' };
		expect(
			validateManifest({ ...m, config: { ...m.config, task_prompt, samples_at_t0: 1 } })
		).toEqual([]);
		expect(
			validateManifest({
				...m,
				config: { ...m.config, task_prompt: { ...task_prompt, preset: 'fancy' }, samples_at_t0: -1 }
			})
		).toEqual([
			'field config.samples_at_t0 must be a non-negative integer',
			'field config.task_prompt.preset must be one of bare, paper, custom'
		]);
		expect(validateRecord({ ...makeRecord(), answer_finish_reason: 'length' })).toEqual([]);
		expect(validateRecord({ ...makeRecord(), answer_finish_reason: 'cut' })).toHaveLength(1);
	});

	it('require config.run_id to match the manifest run_id', () => {
		const m = makeManifest();
		expect(validateManifest({ ...m, config: { ...m.config, run_id: 'other' } })).toEqual([
			'field config.run_id must equal run_id ("run-a")'
		]);
	});

	it('reject an unknown status and a non-string adapter value', () => {
		expect(validateManifest({ ...makeManifest(), status: 'lost', adapter: { vendor: 3 } })).toEqual(
			[
				'field adapter must be an object of strings',
				'field status must be one of running, paused, done, failed'
			]
		);
	});
});

describe('recordsToCsv', () => {
	it('flattens usage into columns and quotes per RFC 4180', () => {
		const record = makeRecord({
			user_turn: 'Wait, "really"?\nYes',
			judge_rationale: null,
			usage: { prompt_tokens: 5, completion_tokens: 6 }
		});
		const csv = recordsToCsv([record]);
		const [header] = csv.split('\r\n');
		expect(header.split(',')).toContain('usage_prompt_tokens');
		expect(header.split(',')).toContain('judge_usage_completion_tokens');
		expect(header.split(',')).not.toContain('usage');
		expect(csv).toContain('"Wait, ""really""?\nYes"');

		const parsed = Papa.parse<Record<string, string>>(csv, { header: true }).data;
		expect(parsed).toHaveLength(1);
		expect(parsed[0].user_turn).toBe(record.user_turn);
		expect(parsed[0].judge_rationale).toBe('');
		expect(parsed[0].usage_prompt_tokens).toBe('5');
		expect(parsed[0].usage_decode_tps).toBe('');
		expect(parsed[0].temperature).toBe('0.7');
		expect(parsed[0].correct).toBe('true');
	});

	it('keeps model output that looks like a formula from being evaluated', () => {
		const csv = recordsToCsv([makeRecord({ user_turn: '=HYPERLINK("x")' })]);
		const parsed = Papa.parse<Record<string, string>>(csv, { header: true }).data;
		expect(parsed[0].user_turn).toBe(`'=HYPERLINK("x")`);
	});

	it.each([
		'=1+1',
		'+1',
		'-1+1',
		'@SUM(A1)',
		'\t=1',
		'\r=1',
		' =1+1',
		'\n=HYPERLINK("http://x")',
		'\r\n  +cmd',
		'\u00a0=1',
		'\u3000=1',
		'\ufeff=1',
		'\u200b@x',
		'＝1+1',
		'  ＝HYPERLINK("x")',
		'＋1',
		'－1',
		'＠SUM(A1)'
	])('neutralises the formula trigger in %j', (text) => {
		const csv = recordsToCsv([makeRecord({ user_turn: text, question: text })]);
		const parsed = Papa.parse<Record<string, string>>(csv, { header: true }).data;
		expect(parsed[0].user_turn).toBe(`'${text}`);
		expect(parsed[0].question).toBe(`'${text}`);
	});

	it.each(['Why 7?', 'a = b', 'x - y', '  hello', '1+1', 'e-mail@x'])(
		'leaves %j as it is',
		(text) => {
			const csv = recordsToCsv([makeRecord({ user_turn: text })]);
			expect(Papa.parse<Record<string, string>>(csv, { header: true }).data[0].user_turn).toBe(
				text
			);
		}
	);

	it('writes one row per record under a single header', () => {
		const rows = recordsToCsv(makeRecords(4)).split('\r\n');
		expect(rows).toHaveLength(5);
	});
});

describe('bundleToFiles and filesToBundle', () => {
	it('round-trip a whole run: manifest, records, answers and annotations', () => {
		const bundle = makeBundle(12);
		const files = bundleToFiles(bundle);
		expect(filesToBundle(files.jsonl, files.manifest)).toEqual(bundle);
	});

	it('put answers and annotations in the manifest file', () => {
		const parsed = JSON.parse(bundleToFiles(makeBundle(6)).manifest);
		expect(parsed.answers).toHaveLength(1);
		expect(parsed.annotations).toHaveLength(2);
		expect(parsed.run_id).toBe('run-a');
	});

	it('read a CLI manifest that has no answers or annotations', () => {
		const bundle = { manifest: makeManifest(), records: makeRecords(2) };
		const { jsonl } = bundleToFiles(bundle);
		const back = filesToBundle(jsonl, JSON.stringify(makeManifest()));
		expect(back).toEqual({ ...bundle, answers: [], annotations: [] });
	});

	it('never write an api key, wherever it hides', () => {
		const m = makeManifest();
		const manifest = {
			...m,
			api_key: 'sk-top',
			config: {
				...m.config,
				apiKey: 'sk-config',
				generator: { id: 'g', OPENAI_API_KEY: 'sk-deep' }
			},
			adapter: { vendor: 'NVIDIA', Authorization: 'Bearer sk-adapter' },
			endpoint: { url: 'http://127.0.0.1:8000/v1', headers: [{ 'x-api-key': 'sk-list' }] }
		};
		const record = { ...makeRecord(), api_key: 'sk-record' } as ProbeRecord;
		const answer = { ...makeAnswer(), extra: { api_key: 'sk-answer' } };
		const files = bundleToFiles({ manifest, records: [record], answers: [answer] });
		const text = files.manifest + files.jsonl;
		expect(text).not.toMatch(/sk-/);
		expect(text.toLowerCase()).not.toMatch(/api_?key|authorization/);
		// Everything else survives, including unknown non-secret fields.
		const back = filesToBundle(files.jsonl, files.manifest);
		expect(back.manifest.adapter).toEqual({ vendor: 'NVIDIA' });
		expect((back.manifest as unknown as { endpoint: unknown }).endpoint).toEqual({
			url: 'http://127.0.0.1:8000/v1',
			headers: [{}]
		});
	});

	it('drop api keys found in files being read, so they are never stored', () => {
		const manifest = JSON.stringify({ ...makeManifest(), api_key: 'sk-in' });
		const back = filesToBundle(recordsToJsonl([makeRecord()]), manifest);
		expect(JSON.stringify(back)).not.toContain('sk-in');
	});

	it('reject records that belong to another run, by line', () => {
		const jsonl = [makeRecord(), makeRecord({ run_id: 'run-b' })].map(line).join('\n');
		expect(problemsOf(() => filesToBundle(jsonl, JSON.stringify(makeManifest())))).toEqual([
			`line 2: run_id "run-b" is not the manifest's "run-a"`
		]);
	});

	it('report problems in both files together', () => {
		const manifest = JSON.stringify({
			...makeManifest({ status: 'lost' as 'done' }),
			answers: [makeAnswer(), makeAnswer({ score_detail: 3 as unknown as string })],
			annotations: [makeAnnotation({ label: 'great' as 'degenerate' })]
		});
		const jsonl = `${line(makeRecord())}\n${line({ ...makeRecord(), run_id: undefined })}\n{}\n`;
		const problems = problemsOf(() => filesToBundle(jsonl, manifest));
		expect(problems.slice(0, 4)).toEqual([
			'manifest: field status must be one of running, paused, done, failed',
			'answers[1]: field score_detail must be a string',
			expect.stringMatching(/^annotations\[0\]: field label must be one of/),
			'line 2: field run_id is missing'
		]);
		// The empty object on line 3 fills the rest of the list, then the list stops.
		expect(problems).toHaveLength(MAX_PROBLEMS + 1);
		expect(problems[4]).toMatch(/^line 3: /);
	});

	it('reject duplicate answers and answers of another run', () => {
		const manifest = JSON.stringify({
			...makeManifest(),
			answers: [makeAnswer(), makeAnswer(), makeAnswer({ run_id: 'x', item_id: 'q' })]
		});
		expect(problemsOf(() => filesToBundle('', manifest))).toEqual([
			'answers[1]: duplicate answer ["run-a","gsm8k-0"]',
			`answers[2]: run_id "x" is not the manifest's "run-a"`
		]);
	});

	it('reject a manifest that is not JSON, or whose answers are not a list', () => {
		expect(problemsOf(() => filesToBundle('', '{nope'))[0]).toMatch(/^manifest: not valid JSON/);
		expect(problemsOf(() => filesToBundle('', '[]'))).toEqual(['manifest: expected a JSON object']);
		const notList = JSON.stringify({ ...makeManifest(), answers: {} });
		expect(problemsOf(() => filesToBundle('', notList))).toEqual([
			'manifest: field answers must be an array'
		]);
	});
});

describe('validateBundle', () => {
	it('accepts a consistent bundle', () => {
		expect(validateBundle(makeBundle(6))).toEqual([]);
	});

	it('names the record by index when it is not from a file', () => {
		const bundle = makeBundle(6);
		bundle.records[4] = { ...bundle.records[4], temperature: 'x' as unknown as number };
		bundle.annotations = [makeAnnotation({ run_id: 'run-z' })];
		expect(validateBundle(bundle)).toEqual([
			`annotations[0]: run_id "run-z" is not the manifest's "run-a"`,
			'records[4]: field temperature must be a number'
		]);
	});
});

describe('reference user turns in exchange files', () => {
	const compared = makeRecord({
		reference_turn: 'Does that count the suburbs?',
		reference_grounding: 'tie',
		reference_grounding_raw: '{"more_grounded": "SAME"}',
		reference_prompt_id: 'utp-reference-v1'
	});

	it('carries the reference turn and its comparison through records, bundles and run files', () => {
		const [back] = parseRecordsJsonl(recordsToJsonl([compared])).records;
		expect(back).toStrictEqual(compared);
		const bundle = { ...makeBundle(2), records: [compared] };
		const files = bundleToFiles(bundle);
		expect(filesToBundle(files.jsonl, files.manifest).records).toStrictEqual([compared]);
		expect(runFileToBundle(bundleToRunFile(bundle)).records).toStrictEqual([compared]);
	});

	it('loads an old record with no reference fields as one without a reference', () => {
		const old = makeRecord();
		expect(Object.keys(old).some((k) => k.startsWith('reference'))).toBe(false);
		expect(parseRecordsJsonl(line(old)).records[0]).toStrictEqual(old);
	});

	it('rejects a comparison without a reference turn and a verdict outside the three', () => {
		const { reference_turn: _dropped, ...orphan } = compared;
		expect(validateRecord(orphan)).toEqual(['field reference_grounding needs a reference_turn']);
		expect(validateRecord({ ...compared, reference_grounding: 'human' })).toEqual([
			'field reference_grounding must be one of generated, reference, tie or null'
		]);
		// Pending (null) and rules-only records carry the turn without a verdict.
		expect(validateRecord({ ...compared, reference_grounding: null })).toEqual([]);
	});
});
