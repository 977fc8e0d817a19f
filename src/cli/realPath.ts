/**
 * A path with its symlinks resolved, also for files not made yet. A path reached through a symlink
 * names the same file as its target, so what must hold once per file (the lock, compaction's
 * rename, --overwrite's delete) works on this.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Links followed before giving up (as the kernel's own ELOOP limit does). */
const MAX_LINKS = 40;

/**
 * The absolute path with every symlink resolved, also for a file that does not exist yet (a
 * dangling link resolves to where its target would be; a missing file to its resolved folder).
 */
export function realPath(path: string, depth = 0): string {
	const abs = resolve(path);
	try {
		return realpathSync(abs);
	} catch {
		// Missing (or dangling): resolve what exists.
	}
	let link: string | undefined;
	try {
		if (lstatSync(abs).isSymbolicLink()) link = readlinkSync(abs);
	} catch {
		link = undefined;
	}
	if (link !== undefined && depth < MAX_LINKS)
		return realPath(resolve(dirname(abs), link), depth + 1);
	const parent = dirname(abs);
	if (parent === abs) return abs;
	return join(realPath(parent, depth), basename(abs));
}

/** Each path of `paths` resolved (realPath), under the same keys. */
export function realPaths<T extends Record<string, string>>(paths: T): T {
	return Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, realPath(v)])) as T;
}
