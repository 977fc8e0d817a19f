/** `summarize` and `agreement`: read a records file (and its manifest), print plain-text tables. */
import { existsSync, readFileSync } from 'node:fs';
import type { Annotation } from '../lib/probe/exchange.ts';
import type { ProbeRecord } from '../lib/probe/types.ts';
import { collectLabelings, pairwiseAgreement } from '../lib/stats/agreement.ts';
import { summarize } from '../lib/stats/aggregate.ts';
import { readJsonlLines, sidecarPaths } from './jsonlStore.ts';

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');
const num = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');

/** Fixed-width table: first column left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][]): string {
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
	return (
		[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n'
	);
}

export function readRun(file: string): { records: ProbeRecord[]; annotations: Annotation[] } {
	const records = readJsonlLines<ProbeRecord>(file);
	const latest = new Map(records.map((r) => [`${r.run_id}\u0000${r.key}`, r]));
	const manifestPath = sidecarPaths(file).manifest;
	let annotations: Annotation[] = [];
	if (existsSync(manifestPath)) {
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
			annotations?: Annotation[];
		};
		annotations = manifest.annotations ?? [];
	}
	return { records: [...latest.values()], annotations };
}

export function summarizeText(records: ProbeRecord[]): string {
	const rows = summarize(records).map((s) => [
		`T=${s.temperature} ${s.perturbation}`,
		String(s.n),
		`${pct(s.accuracy.p)} [${pct(s.accuracy.lo)}, ${pct(s.accuracy.hi)}] n=${s.accuracy.n}`,
		`${pct(s.followup.p)} [${pct(s.followup.lo)}, ${pct(s.followup.hi)}] n=${s.followup.n}`,
		String(s.judge_errors),
		String(s.pending)
	]);
	return table(
		[
			'condition',
			'records',
			'accuracy (95% CI)',
			'genuine follow-up (95% CI)',
			'judge errors',
			'pending'
		],
		rows
	);
}

export function agreementText(records: ProbeRecord[], annotations: Annotation[]): string {
	const pairs = pairwiseAgreement(collectLabelings(records, annotations));
	if (pairs.length === 0) return 'No two labelers labeled the same records.\n';
	const rows = pairs.map((p) => [
		`${p.a} vs ${p.b}`,
		String(p.full.n),
		`${num(p.full.kappa)} [${num(p.full.lo)}, ${num(p.full.hi)}]`,
		`${num(p.binary.kappa)} [${num(p.binary.lo)}, ${num(p.binary.hi)}]`,
		pct(p.full.po)
	]);
	return table(
		[
			'labelers',
			'n',
			"Cohen's κ, all labels (95% CI)",
			'κ, genuine vs not (95% CI)',
			'raw agreement'
		],
		rows
	);
}
