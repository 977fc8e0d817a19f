/**
 * The real files behind `--out`. A path reached through a symlink names the same file as its
 * target, so everything that must hold once per file (the lock, compaction's rename, --overwrite's
 * delete, the check that no output is an input) works on the resolved path: two runs, one through a
 * link, then share one lock, and a rename replaces the target, never the link itself.
 */
import { sidecarPaths } from './jsonlStore.ts';
import { lockPath } from './lock.ts';
import { realPath } from './realPath.ts';

/** A file a run writes, and in words what it is ("the answers of --model x"). */
export interface NamedPath {
	path: string;
	what: string;
}

/** Every file a run into `out` writes or removes: records, answers, manifest, lock. */
export function outputsOf(out: string, of = '--out'): NamedPath[] {
	const s = sidecarPaths(out);
	return [
		{ path: s.records, what: `the records file of ${of}` },
		{ path: s.answers, what: `the answers file of ${of}` },
		{ path: s.manifest, what: `the manifest of ${of}` },
		{ path: lockPath(out), what: `the lock file of ${of}` }
	];
}

/** The files a run reads that no output may be: the dataset and template, when they are files. */
export function runInputs(opts: { dataset: string; template?: string }): NamedPath[] {
	const inputs = [{ path: opts.dataset, what: 'the --dataset file' }];
	if (opts.template !== undefined)
		inputs.push({ path: opts.template, what: 'the --template file' });
	return inputs;
}

/**
 * Why a run may not start, before anything is touched: an output is an input, or two outputs are
 * one file (by their real paths, so a link to the dataset counts as the dataset). Names both paths
 * as given; the caller throws it as a usage error. Undefined when every output is its own file.
 */
export function outputClash(
	outputs: readonly NamedPath[],
	inputs: readonly NamedPath[]
): string | undefined {
	const inputAt = new Map(inputs.map((i) => [realPath(i.path), i]));
	const seen = new Map<string, NamedPath>();
	for (const o of outputs) {
		const real = realPath(o.path);
		const input = inputAt.get(real);
		if (input)
			return `--out: ${o.what} (${o.path}) would write over ${input.what} (${input.path}); pick another --out`;
		const other = seen.get(real);
		if (other)
			return `--out: ${o.what} (${o.path}) is the same file as ${other.what} (${other.path}); pick another --out or other model ids`;
		seen.set(real, o);
	}
	return undefined;
}
