/**
 * CPU time of the Chromium processes a bench started, by process type, from Linux's /proc: what a
 * browser run costs the machine beside its wall time. On 2 cores a run that needs more CPU than
 * its wall time allows is CPU-bound, whatever its requests in flight; the bench's server ratio
 * (serverRatio.ts) reads it to say so. Elsewhere than Linux the figures are absent, not zero.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Milliseconds of CPU (user + system) per Chromium process type: renderer, gpu-process, … */
export type CpuByType = Record<string, number>;

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ): 100 on every Linux we run on. */
const TICKS_PER_S = 100;

export interface ProcStat {
	ppid: number;
	cpuMs: number;
}

/**
 * One /proc/<pid>/stat line: its parent and its CPU so far. The process name (field 2) may hold
 * spaces and parentheses, so the fields are counted from its last ")".
 */
export function parseStat(line: string): ProcStat | null {
	const close = line.lastIndexOf(')');
	if (close < 0) return null;
	// From field 3 (state) on: ppid is field 4, utime field 14, stime field 15.
	const fields = line.slice(close + 2).split(' ');
	const ppid = Number(fields[1]);
	const ticks = Number(fields[11]) + Number(fields[12]);
	if (!Number.isFinite(ppid) || !Number.isFinite(ticks)) return null;
	return { ppid, cpuMs: (ticks * 1000) / TICKS_PER_S };
}

/**
 * A Chromium process's type from its command line ("browser" for the one without --type), or null
 * for a process that is not Chromium's. Chromium rewrites its own title, so the arguments may be
 * joined by spaces instead of NULs.
 */
export function chromiumType(cmdline: string): string | null {
	const args = cmdline.split(/[\0 ]/).filter((a) => a !== '');
	if (!/chrom/i.test(args[0] ?? '')) return null;
	const type = args.find((a) => a.startsWith('--type='))?.slice('--type='.length);
	if (type === undefined) return 'browser';
	if (type !== 'utility') return type;
	// Utility processes by service: the network service is the one a server run leans on.
	const service = args
		.find((a) => a.startsWith('--utility-sub-type='))
		?.slice('--utility-sub-type='.length)
		.split('.')[0];
	return service ? `utility:${service}` : 'utility';
}

/** Every Chromium process below `root` (the bench itself), its CPU summed by type. */
export function chromiumCpu(root = process.pid): CpuByType | null {
	let pids: string[];
	try {
		pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
	} catch {
		return null;
	}
	const children = new Map<number, number[]>();
	const procs = new Map<number, { type: string | null; cpuMs: number }>();
	for (const pid of pids) {
		try {
			const stat = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
			if (!stat) continue;
			const type = chromiumType(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
			procs.set(Number(pid), { type, cpuMs: stat.cpuMs });
			children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(pid)]);
		} catch {
			// Gone between the listing and the read.
		}
	}
	const out: CpuByType = {};
	const walk = (pid: number) => {
		for (const child of children.get(pid) ?? []) {
			const p = procs.get(child);
			if (p?.type) out[p.type] = (out[p.type] ?? 0) + p.cpuMs;
			walk(child);
		}
	};
	walk(root);
	return out;
}

/**
 * What each type spent between two readings. The sums are by type, so a process that ended in
 * between takes its CPU with it: read both sides while the same browser runs.
 */
export function cpuSpent(before: CpuByType, after: CpuByType): CpuByType {
	const out: CpuByType = {};
	for (const [type, ms] of Object.entries(after)) {
		const spent = ms - (before[type] ?? 0);
		if (spent > 0) out[type] = spent;
	}
	return out;
}

/** "28.1 s CPU: renderer 14.0, browser 6.0, …", the largest first; under 0.05 s in the total only. */
export function describeCpu(spent: CpuByType): string {
	const parts = Object.entries(spent).sort((a, b) => b[1] - a[1]);
	const total = parts.reduce((sum, [, ms]) => sum + ms, 0);
	const each = parts
		.filter(([, ms]) => ms >= 50)
		.map(([type, ms]) => `${type} ${(ms / 1000).toFixed(1)}`)
		.join(', ');
	return `${(total / 1000).toFixed(1)} s CPU${each ? `: ${each}` : ''}`;
}
