import { describe, expect, it } from 'vitest';
import { ENGINES } from '../../../src/lib/engines/registry.ts';
import { answerTokenLimit } from '../../../src/lib/probe/runConfig.ts';
import { PAPER_GSM8K_TEMPLATE } from '../../../src/lib/probe/taskPrompt.ts';
import { estimateRun, formatDuration, measuredSpeed } from '../../../src/lib/setup/estimate.ts';
import {
	buildConfig,
	conditionCount,
	DEFAULT_FORM,
	formProblems,
	newRunId,
	parseTemperatures,
	type RunFormValues
} from '../../../src/lib/setup/runForm.ts';
import { gsmItem } from '../../helpers/factories.ts';

describe('parseTemperatures', () => {
	it.each([
		['0, 0.5, 1', [0, 0.5, 1]],
		['0,1', [0, 1]],
		[' 0.7 ; 0.7  1 ', [0.7, 1]],
		['', []],
		['0, warm', null]
	])('%j → %j', (text, expected) => {
		expect(parseTemperatures(text)).toEqual(expected);
	});
});

describe('formProblems', () => {
	it('accepts the defaults', () => {
		expect(formProblems(DEFAULT_FORM)).toEqual([]);
	});

	it.each([
		[{ n: 0 }, 'N must be a whole number of at least 1.'],
		[{ seed: -1 }, 'The seed must be a whole number ≥ 0.'],
		[
			{ temperatures: '0, hot' },
			'Temperatures must be numbers separated by commas, e.g. 0, 0.5, 1.'
		],
		[{ temperatures: '3' }, 'Temperatures must be between 0 and 2.'],
		[{ perturbations: [] }, 'Pick at least one perturbation.'],
		[
			{ perturbations: ['truncate'], truncate_fraction: 0 },
			'The truncate fraction must be above 0 and at most 1.'
		],
		[{ perturbations: ['append'], append_text: ' ' }, 'The appended text must not be empty.'],
		[{ samples: 1.5 }, 'Samples per condition must be a whole number of at least 1.'],
		[
			{ task_preset: 'custom', task_template: 'Solve it.' },
			'The task prompt must contain {question}, where the question goes.'
		],
		[{ n: 100_000, samples: 5 }, 'That is more than 100,000 user turns; lower N or the conditions.']
	] as [Partial<RunFormValues>, string][])('%j', (change, problem) => {
		expect(formProblems({ ...DEFAULT_FORM, ...change })).toEqual([problem]);
	});
});

describe('buildConfig', () => {
	it("follows the template's thinking default until the form overrides it", () => {
		const run = {
			run_id: 'r',
			dataset: 'demo',
			items: [gsmItem(0)],
			generator: { id: 'g' },
			judge: { id: 'j' }
		};
		expect(DEFAULT_FORM.thinking).toBeNull();
		// Qwen3.5 and GLM-4.7-Flash think by default; a form left alone keeps that.
		expect(buildConfig(DEFAULT_FORM, { ...run, thinking_default: true }).thinking).toBe(true);
		expect(buildConfig(DEFAULT_FORM, { ...run, thinking_default: false }).thinking).toBe(false);
		expect(
			buildConfig({ ...DEFAULT_FORM, thinking: false }, { ...run, thinking_default: true }).thinking
		).toBe(false);
	});

	it('orders perturbations canonically, answers greedily, and drops thinking where unsupported', () => {
		const values = { ...DEFAULT_FORM, perturbations: ['append', 'none'] as const, thinking: true };
		const run = {
			run_id: 'r',
			dataset: 'demo',
			items: [gsmItem(0)],
			generator: { id: 'g' },
			judge: { id: 'j' },
			thinking_default: null
		};
		const c = buildConfig({ ...values, perturbations: [...values.perturbations] }, run);
		expect(c.perturbations).toEqual(['none', 'append']);
		expect(c.temperatures).toEqual([0, 0.5, 1]);
		expect(c.answer_temperature).toBe(0);
		expect(c.task_prompt).toEqual({ preset: 'bare', template: '{question}', system: '' });
		expect(
			buildConfig(
				{ ...DEFAULT_FORM, task_preset: 'paper', task_template: 'ignored', system_prompt: 'Hi.' },
				run
			).task_prompt
		).toEqual({ preset: 'paper', template: PAPER_GSM8K_TEMPLATE, system: 'Hi.' });
		expect(c.thinking).toBe(false);
		expect(
			buildConfig({ ...DEFAULT_FORM, thinking: true }, { ...run, thinking_default: false }).thinking
		).toBe(true);
		expect(conditionCount({ ...DEFAULT_FORM, perturbations: ['none'] })).toBe(3);
		// T 0, 0.5, 1 × 2 perturbations: one greedy turn at T=0, 2 samples at each T > 0.
		expect(conditionCount({ ...DEFAULT_FORM, perturbations: ['none', 'append'], samples: 2 })).toBe(
			2 * (1 + 2 + 2)
		);
		expect(
			conditionCount({ ...DEFAULT_FORM, temperatures: '0', perturbations: ['none'], samples: 5 })
		).toBe(1);
	});

	it('sizes the answer limit from the context window by default, and takes a typed one otherwise', () => {
		const run = {
			run_id: 'r',
			dataset: 'gsm8k',
			items: [gsmItem(0)],
			generator: { id: 'g' },
			judge: { id: 'j' },
			thinking_default: true
		};
		// 4,096-token window (every web-llm catalog model) − 256 for the user turn − 512 for the question.
		expect(buildConfig(DEFAULT_FORM, { ...run, context_window: 4096 }).answer_max_tokens).toBe(
			3328
		);
		expect(DEFAULT_FORM.answer_tokens_auto).toBe(true);
		// Unknown window (a server): the typed value.
		expect(buildConfig(DEFAULT_FORM, run).answer_max_tokens).toBe(1024);
		// Not automatic: the typed value even when the window is known.
		const typed = { ...DEFAULT_FORM, answer_tokens_auto: false, answer_max_tokens: 700 };
		expect(buildConfig(typed, { ...run, context_window: 32768 }).answer_max_tokens).toBe(700);
		// A window too small to leave room still gives a usable floor, never zero or less.
		expect(answerTokenLimit(DEFAULT_FORM, 600)).toBe(256);
		expect(answerTokenLimit(DEFAULT_FORM, 0)).toBe(1024);
	});

	it('makes sortable run ids', () => {
		expect(newRunId(new Date(2026, 6, 22, 10, 15, 30), () => 0.5)).toBe('run-20260722-101530-8000');
	});
});

describe('estimateRun', () => {
	it('counts answers, user turns and judge calls exactly and sums uncached downloads', () => {
		const e = estimateRun({
			items: 10,
			conditions: 6,
			judge_mode: 'hybrid',
			guess_tps: ENGINES.webgpu.guessTps,
			models: [
				{ id: 'a', download_MB: 400, cached: false },
				{ id: 'a', download_MB: 400, cached: false },
				{ id: 'b', download_MB: 900, cached: true },
				{ id: 'c', download_MB: null }
			],
			answer_max_tokens: 1024,
			max_tokens: 256
		});
		expect(e.answers).toBe(10);
		expect(e.user_turns).toBe(60);
		expect(e.judge_calls).toEqual({ min: 0, max: 60 });
		expect(e.download_MB).toBe(400);
		expect(e.unknown_sizes).toEqual(['c']);
		expect(e.seconds.max).toBeGreaterThan(e.seconds.min);
	});

	it('has no judge calls in rules mode and all of them in llm mode', () => {
		const base = {
			items: 2,
			conditions: 3,
			guess_tps: ENGINES.server.guessTps,
			models: [],
			answer_max_tokens: 10,
			max_tokens: 10
		};
		expect(estimateRun({ ...base, judge_mode: 'rules' }).judge_calls).toEqual({ min: 0, max: 0 });
		expect(estimateRun({ ...base, judge_mode: 'llm' }).judge_calls).toEqual({ min: 6, max: 6 });
	});

	it("uses this device's benchmarked speed when there is one, the engine's guess otherwise", () => {
		const base = {
			items: 4,
			conditions: 2,
			judge_mode: 'rules' as const,
			guess_tps: ENGINES.cpu.guessTps,
			models: [],
			answer_max_tokens: 100,
			max_tokens: 50
		};
		const guess = estimateRun(base);
		expect(guess).toMatchObject({ tokens_per_second: ENGINES.cpu.guessTps, speed_source: 'guess' });
		const measured = estimateRun({
			...base,
			measured: { tokens_per_second: 2 * ENGINES.cpu.guessTps, at: '2026-01-01T00:00:00Z' }
		});
		expect(measured.speed_source).toBe('measured');
		expect(measured.seconds.max).toBeCloseTo(guess.seconds.max / 2);
	});

	it('picks the newest benchmark of this engine and model that measured decoding', () => {
		const row = (engine: string, model_id: string, created_at: string, decode_tps?: number) => ({
			engine,
			model_id,
			created_at,
			results: (decode_tps === undefined ? {} : { decode_tps }) as Record<string, number>
		});
		const history = [
			row('wllama', 'm', '2026-01-02T00:00:00Z', 7),
			row('wllama', 'm', '2026-01-03T00:00:00Z', 9),
			row('wllama', 'm', '2026-01-04T00:00:00Z'),
			row('wllama', 'other', '2026-01-05T00:00:00Z', 50),
			row('webllm', 'm', '2026-01-06T00:00:00Z', 40)
		];
		expect(measuredSpeed(history, 'wllama', 'm')).toEqual({
			tokens_per_second: 9,
			at: '2026-01-03T00:00:00Z'
		});
		expect(measuredSpeed(history, 'openai', 'm')).toBeUndefined();
		expect(measuredSpeed([row('wllama', 'm', 'x', 0)], 'wllama', 'm')).toBeUndefined();
	});

	it.each([
		[30, 'under a minute'],
		[600, 'about 10 min'],
		[4800, 'about 1 h 20 min'],
		[7200, 'about 2 h']
	])('formats %d s as %s', (s, text) => {
		expect(formatDuration(s)).toBe(text);
	});
});
