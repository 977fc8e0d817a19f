/** Small display formatters shared by the run and set-up views. */

/** 95_000 → "1 min 35 s"; 4_000 → "4 s"; under a second → "<1 s". */
export function formatMs(ms: number): string {
	if (!Number.isFinite(ms) || ms < 0) return '?';
	const s = Math.round(ms / 1000);
	if (s < 1) return '<1 s';
	if (s < 60) return `${s} s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m} min ${s % 60} s`;
	return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** 1_572_864 → "1.5 MB"; 3.2e9 → "3.0 GB". */
export function formatBytes(bytes: number): string {
	if (!Number.isFinite(bytes) || bytes < 0) return '?';
	const mb = bytes / 1024 ** 2;
	if (mb >= 1024) return `${(mb / 1024).toFixed(1)} GB`;
	return mb >= 10 ? `${Math.round(mb)} MB` : `${mb.toFixed(1)} MB`;
}

/** "T = 0.5 · truncate · sample 2" (samples shown 1-based). */
export function conditionCaption(c: {
	temperature: number;
	perturbation: string;
	sample: number;
}): string {
	return `T = ${c.temperature} · ${c.perturbation} · sample ${c.sample + 1}`;
}

/** A p-value as the results, the study and `summarize` print it: "0.031", "< 0.001"; "—" for none. */
export function pValueText(p: number): string {
	if (!Number.isFinite(p)) return '—';
	return p < 0.001 ? '< 0.001' : p.toFixed(3);
}
