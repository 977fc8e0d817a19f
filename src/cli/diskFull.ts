/**
 * A full disk, said for the CLI's files: which file, how much it needed and how much is free, and
 * that the run resumes once space is freed (every line written is whole, so nothing is lost).
 */
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { StorageFullError } from '../lib/probe/storageFull.ts';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

export const DISK_FULL_RECOVERY =
	'free some space, then run the same command to resume: every record stored so far is kept';

/** Bytes this process may still write beside `path`; undefined where the system cannot tell. */
export function freeBytes(path: string): number | undefined {
	try {
		const s = statfsSync(dirname(path));
		return s.bavail * s.bsize;
	} catch {
		return undefined;
	}
}

export function isDiskFull(err: unknown): boolean {
	return FULL_CODES.has((err as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** `err` as a StorageFullError naming `path` and `needBytes` when it is a full disk, else as is. */
export function diskFullError(path: string, needBytes: number, err: unknown): unknown {
	if (!isDiskFull(err)) return err;
	return new StorageFullError(
		`the disk is full: could not write ${path} (${spaceText(path, needBytes)})`,
		DISK_FULL_RECOVERY,
		{ cause: err }
	);
}

/** "needs 352 KB, 12 KB free" */
export function spaceText(path: string, needBytes: number): string {
	const free = freeBytes(path);
	return `needs ${size(needBytes)}` + (free === undefined ? '' : `, ${size(free)} free`);
}

function size(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(0)} KB`;
	return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}
