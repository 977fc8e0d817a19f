import { describe, expect, it } from 'vitest';
import { deviceLine } from '../../../src/lib/display/deviceLine.ts';
import { exampleLink, listExamples } from '../../../src/lib/app/examples.ts';
import type { GpuReport } from '../../../src/lib/engines/webgpu/gpu.ts';
import index from '../../../static/examples/index.json';

const adapter = (fallback: boolean) => ({
	vendor: 'google',
	architecture: 'swiftshader',
	device: '',
	description: '',
	fallback
});

describe('deviceLine', () => {
	it('says in one line what the device can do', () => {
		expect(deviceLine(null)).toBe('Checking this device…');
		const soft: GpuReport = { webgpu: true, adapter: adapter(true), shader_f16: false, limits: {} };
		expect(deviceLine(soft)).toBe(
			'WebGPU ✓ · software adapter (slow) · no shader-f16 → q4f32 models'
		);
		const hard: GpuReport = { ...soft, adapter: adapter(false), shader_f16: true };
		expect(deviceLine(hard)).toBe('WebGPU ✓ · google swiftshader · shader-f16 → q4f16 models');
		expect(deviceLine({ webgpu: true, shader_f16: false, limits: {} })).toMatch(/no GPU adapter/);
		expect(deviceLine({ webgpu: false, shader_f16: false, limits: {} })).toMatch(
			/^No WebGPU .*shared runs/
		);
	});
});

const entry = {
	file: 'qwen3-gsm8k.run.jsonl',
	title: 'Qwen3 0.6B on 20 GSM8K items',
	model: 'Qwen3-0.6B-q4f32_1-MLC',
	device: 'Apple M2, Chrome 131',
	date: '2026-11-01'
};

describe('listExamples', () => {
	it('ships an empty list: no example run was produced by a real model here', () => {
		expect(listExamples(index, {})).toEqual({ examples: [], problems: [] });
	});

	it('lists an entry whose file is shipped, with its link', () => {
		const { examples, problems } = listExamples(
			{ examples: [entry] },
			{ 'qwen3-gsm8k.run.jsonl': './assets/qwen3-gsm8k-abc.run.jsonl' }
		);
		expect(problems).toEqual([]);
		expect(examples).toEqual([{ ...entry, url: './assets/qwen3-gsm8k-abc.run.jsonl' }]);
		expect(exampleLink(examples[0], 'https://u.github.io/utp/index.html#/')).toBe(
			`#/open?url=${encodeURIComponent('https://u.github.io/utp/assets/qwen3-gsm8k-abc.run.jsonl')}`
		);
	});

	it('leaves out half-added entries, saying why', () => {
		const { examples, problems } = listExamples(
			{
				examples: [
					entry,
					{ ...entry, device: '' },
					{ ...entry, file: 'x.jsonl' },
					{ ...entry, file: 'y.run.jsonl', date: 'last week' },
					null
				]
			},
			{ 'qwen3-gsm8k.run.jsonl': 'a', 'x.jsonl': 'b', 'y.run.jsonl': 'c' }
		);
		expect(examples).toHaveLength(1);
		expect(problems).toEqual([
			'static/examples/index.json, example 2: missing device',
			'static/examples/index.json, example 3: x.jsonl is not a run file (.run.jsonl)',
			'static/examples/index.json, example 4: date "last week" is not YYYY-MM-DD',
			'static/examples/index.json, example 5: missing file, title, model, device, date'
		]);
		expect(listExamples({ examples: [entry] }, {}).problems).toEqual([
			'static/examples/index.json, example 1: qwen3-gsm8k.run.jsonl is not in static/examples/'
		]);
		expect(listExamples({}, {}).problems).toEqual([
			'static/examples/index.json: no "examples" array'
		]);
	});
});
