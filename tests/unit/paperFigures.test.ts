/**
 * static/paper-figures.json against the numbers published in Shekkizhar, Cosentino, Earle (2026),
 * arXiv:2604.02315, as listed in the project brief, and against the PaperPoint shape the charts
 * read. The JSON is read from disk, not through the typed import, so a bad field fails here too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { overlayFor, PAPER_FIGURES } from '../../src/lib/state/paperFigures.ts';

const raw = JSON.parse(
	readFileSync(new URL('../../static/paper-figures.json', import.meta.url), 'utf8')
) as Record<string, unknown>;

type Published = [
	model: string,
	benchmark: string,
	T: number,
	condition: string,
	acc: number | undefined,
	followup: number
];

/** Every point the overlay may draw: [model, benchmark, temperature, condition, accuracy, follow-up]. */
const PUBLISHED: Published[] = [
	['Qwen3.5-0.8B', 'GSM8K', 0, 'none', 0.416, 0.01],
	['Qwen3.5-397B-A17B', 'GSM8K', 0, 'none', 0.968, 0.008],
	['Qwen3.5-397B-A17B', 'GPQA-Diamond', 0, 'none', 0.861, 0.005],
	['Qwen3.5-397B-A17B', 'IFBench', 0, 'none', 0.516, 0.097],
	['gpt-oss-20B', 'GPQA-Diamond', 0, 'none', 0.611, 0.207],
	['gpt-oss-20B', 'GPQA-Diamond', 1, 'none', undefined, 0.47],
	['Qwen3.5-27B', 'GSM8K', 1, 'none', undefined, 0.22],
	['Qwen3.5-27B', 'GPQA-Diamond', 1, 'none', undefined, 0.359],
	['Qwen3.5-27B', 'GPQA-Diamond', 0, 'none', undefined, 0.015],
	['Qwen3.5-27B', 'IFBench', 1, 'none', undefined, 0.307],
	['Qwen3.5-27B', 'IFBench', 0, 'none', undefined, 0.01],
	['GLM-4.7', 'GSM8K', 1, 'none', undefined, 0.152],
	['GLM-4.7', 'GPQA-Diamond', 1, 'none', undefined, 0.354],
	['GLM-4.7', 'GSM8K', 0, 'none', undefined, 0.01],
	['GLM-4.7', 'GSM8K', 0, 'truncate', undefined, 0.55],
	['gpt-oss-120B', 'GSM8K', 0, 'none', undefined, 0.0],
	['gpt-oss-120B', 'GSM8K', 0, 'truncate', undefined, 0.242]
];

const POINT_KEYS = ['model', 'benchmark', 'temperature', 'condition', 'accuracy', 'followup'];
const BENCHMARKS = ['GSM8K', 'GPQA-Diamond', 'IFBench'];

const points = raw.points as Record<string, unknown>[];

describe('paper figures', () => {
	it('cites the paper', () => {
		const source = raw.source as Record<string, unknown>;
		expect(source.arxiv).toBe('2604.02315');
		expect(source.authors).toBe('Sarath Shekkizhar, Romain Cosentino, Adam Earle');
		expect(source.year).toBe(2026);
		expect(source.title).toBe(
			'Beyond the Assistant Turn: User Turn Generation as a Probe of Interaction Awareness in Language Models'
		);
		expect(source.citation).toContain('arXiv:2604.02315');
	});

	it.each(PUBLISHED)(
		'has %s on %s at T=%s (%s)',
		(model, benchmark, T, condition, acc, followup) => {
			const found = points.filter(
				(p) =>
					p.model === model &&
					p.benchmark === benchmark &&
					p.temperature === T &&
					p.condition === condition
			);
			expect(found).toHaveLength(1);
			expect(found[0].followup).toBe(followup);
			expect(found[0].accuracy).toBe(acc);
		}
	);

	it('has no point beyond the published list', () => {
		expect(points).toHaveLength(PUBLISHED.length);
	});

	it('keeps the Qwen3.5-2B base GSM8K accuracy as a number that is never drawn', () => {
		expect(raw.accuracy_only).toEqual([
			{ model: 'Qwen3.5-2B (base)', benchmark: 'GSM8K', accuracy: 0.629 }
		]);
	});

	it('gives every point the PaperPoint shape with rates as fractions', () => {
		for (const p of points) {
			for (const key of Object.keys(p)) expect(POINT_KEYS).toContain(key);
			expect(typeof p.model).toBe('string');
			expect(BENCHMARKS).toContain(p.benchmark);
			expect(typeof p.temperature).toBe('number');
			expect(['none', 'truncate', 'append']).toContain(p.condition);
			for (const rate of [p.followup, p.accuracy ?? 0]) {
				expect(typeof rate).toBe('number');
				expect(rate).toBeGreaterThanOrEqual(0);
				expect(rate).toBeLessThanOrEqual(1);
			}
		}
	});

	it('holds numbers and names only: no field outside the known set, no long text', () => {
		expect(Object.keys(raw).sort()).toEqual(['accuracy_only', 'notes', 'points', 'source']);
		const strings: string[] = [];
		const walk = (v: unknown, key: string) => {
			if (typeof v === 'string' && key !== 'title' && key !== 'citation' && key !== 'notes')
				strings.push(v);
			else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
			else if (typeof v === 'object' && v !== null)
				for (const [k, x] of Object.entries(v)) walk(x, k);
		};
		walk(raw, '');
		for (const s of strings) expect(s.length).toBeLessThanOrEqual(64);
	});

	it('is what the app imports', () => {
		expect(PAPER_FIGURES.points).toEqual(points);
	});
});

describe('overlayFor', () => {
	it.each([
		['gsm8k', 'GSM8K'],
		['openai/gsm8k test', 'GSM8K'],
		['IFBench', 'IFBench']
	])('keeps the %s run to %s points', (dataset, benchmark) => {
		const shown = overlayFor(PAPER_FIGURES.points, dataset);
		expect(shown.length).toBeGreaterThan(0);
		expect(shown.every((p) => p.benchmark === benchmark)).toBe(true);
	});

	it('shows every point when the dataset names no benchmark of the paper', () => {
		expect(overlayFor(PAPER_FIGURES.points, 'demo')).toHaveLength(PUBLISHED.length);
	});
});
