/**
 * One writer per --out: `run` holds OUT.lock while it writes. Two processes appending to and
 * compacting the same files would each rewrite byte offsets the other relies on and lose records
 * silently, so a second `run` is refused instead.
 *
 * The lock is a file holding the owner's pid and host, created whole in one step (written to a
 * private file, then hard-linked into place: `link` fails when the lock exists). It outlives a
 * crash or SIGKILL, so a lock whose process is gone (same host, no such pid) is taken over, and
 * the takeover is said. `summarize` and `agreement` only read and take no lock.
 */
import { AppError } from '../lib/errors/appError.ts';
import { hostname } from 'node:os';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { sidecarPaths } from './jsonlStore.ts';
import { MissingFileError } from './lines.ts';

/** Another live process writes this --out. */
export class RunLockedError extends AppError {
	constructor(out: string, lock: string, holder: LockHolder) {
		const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
		super(
			`${out} is being written by another run (pid ${holder.pid}${where}, since ${holder.since})`,
			{
				code: 'run_locked',
				recovery:
					`wait for it to finish, or stop it (Ctrl-C) and run the same command to resume; ` +
					`if no such run exists, delete ${lock}`
			}
		);
		this.name = 'RunLockedError';
	}
}

/** --out cannot be written there at all: a read-only folder, no permission, a name too long. */
export class OutNotWritableError extends AppError {
	constructor(out: string, why: string) {
		super(`--out ${out} cannot be written: ${why}`, {
			code: 'out_not_writable',
			recovery: 'pick an --out in a folder you can write, with a shorter name if it is long'
		});
		this.name = 'OutNotWritableError';
	}
}

const UNWRITABLE: Record<string, string> = {
	EROFS: 'its folder is on a read-only file system',
	EACCES: 'no permission to write in its folder',
	EPERM: 'no permission to write in its folder',
	ENAMETOOLONG: 'its file name is longer than the file system allows'
};

/** A failure to write beside --out, worded when it is one of UNWRITABLE; else as it was. */
export function unwritableOut(out: string, err: unknown): unknown {
	const why = UNWRITABLE[code(err) ?? ''];
	return why ? new OutNotWritableError(out, why) : err;
}

export interface LockHolder {
	pid: number;
	host: string;
	/** ISO time the lock was taken, to tell the user which run it is. */
	since: string;
}

export interface RunLock {
	readonly path: string;
	/** Set when a dead process's lock was taken over: the line to tell the user. */
	readonly tookOver?: string;
	/** Remove the lock if it is still this process's. Safe to call twice. */
	release(): void;
}

export function lockPath(out: string): string {
	return sidecarPaths(out).records.replace(/\.jsonl$/, '') + '.lock';
}

/** Takeover attempts before giving up: each one only loses to another process taking the lock. */
const ATTEMPTS = 5;

/**
 * Take --out's lock for this process.
 * @throws RunLockedError when a live process (or one on another host) holds it.
 */
export function acquireRunLock(out: string): RunLock {
	const path = lockPath(out);
	const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
	const mine = `${path}.${process.pid}`;
	try {
		writeFileSync(mine, JSON.stringify(me) + '\n');
	} catch (err) {
		if (code(err) === 'ENOENT') throw new MissingFileError(dirname(path), 'folder for --out');
		throw unwritableOut(out, err);
	}
	let tookOver: string | undefined;
	try {
		for (let i = 0; i < ATTEMPTS; i++) {
			try {
				linkSync(mine, path);
				return held(path, me, tookOver);
			} catch (err) {
				if (code(err) !== 'EEXIST') throw err;
			}
			const holder = readHolder(path);
			if (holder === undefined) continue; // released meanwhile: try again
			if (alive(holder)) throw new RunLockedError(out, path, holder);
			// Move the stale lock aside in one step; if what moved is not the stale one (another
			// process took it over meanwhile), put it back and yield to that process.
			const aside = `${path}.stale.${process.pid}`;
			try {
				renameSync(path, aside);
			} catch (err) {
				if (code(err) === 'ENOENT') continue;
				throw err;
			}
			const moved = readHolder(aside);
			if (moved && alive(moved)) {
				try {
					linkSync(aside, path);
				} catch {
					// Someone else holds it now; either way it is not ours.
				}
				unlinkSync(aside);
				throw new RunLockedError(out, path, moved);
			}
			unlinkSync(aside);
			tookOver =
				`note: took over ${path} from pid ${holder.pid}, which is no longer running ` +
				`(it stopped without releasing it; the run resumes from what it stored)`;
		}
		throw new Error(`${path}: could not take the lock after ${ATTEMPTS} attempts`);
	} finally {
		unlinkSync(mine);
	}
}

function held(path: string, me: LockHolder, tookOver: string | undefined): RunLock {
	let released = false;
	const release = () => {
		if (released) return;
		released = true;
		process.off('exit', release);
		const now = readHolder(path);
		if (now?.pid === me.pid && now.host === me.host) unlinkSync(path);
	};
	// A second Ctrl-C leaves through process.exit: the lock goes with it.
	process.on('exit', release);
	return { path, tookOver, release };
}

function readHolder(path: string): LockHolder | undefined {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (err) {
		if (code(err) === 'ENOENT') return undefined;
		throw err;
	}
	try {
		const v = JSON.parse(text) as Partial<LockHolder>;
		if (typeof v.pid === 'number' && typeof v.host === 'string')
			return { pid: v.pid, host: v.host, since: String(v.since ?? '?') };
	} catch {
		// Not ours, or not JSON: treated as a lock of a process long gone.
	}
	return { pid: -1, host: hostname(), since: '?' };
}

/** Whether the holder may still be writing: unknowable on another host, so assumed. */
function alive(h: LockHolder): boolean {
	if (h.host !== hostname()) return true;
	if (h.pid <= 0) return false;
	try {
		process.kill(h.pid, 0);
		return true;
	} catch (err) {
		return code(err) === 'EPERM';
	}
}

function code(err: unknown): string | undefined {
	return (err as NodeJS.ErrnoException | undefined)?.code;
}
