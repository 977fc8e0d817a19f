/**
 * The CLI's cache of the English NLP data files (load.ts's ResourceCache) in a directory: one file
 * per URL, named by the sha256 of the URL. A file is written under a temporary name and renamed
 * into place, so a run killed mid-write leaves no half file under the real name. (The loader also
 * checks what it reads back and fetches a damaged file again.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ResourceCache } from '../lib/nlp/load.ts';

/** `$XDG_CACHE_HOME/user-turn-probe/nlp`, else `~/.cache/user-turn-probe/nlp`. */
export function defaultNlpCacheDir(env: NodeJS.ProcessEnv = process.env): string {
	const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(base, 'user-turn-probe', 'nlp');
}

/** The file name for `url`: hex sha256 of the URL, with the URL's file extension for people. */
export function cacheFileName(url: string): string {
	const ext = /\.(zip|csv)$/.exec(new URL(url).pathname)?.[0] ?? '';
	return createHash('sha256').update(url, 'utf8').digest('hex') + ext;
}

export function directoryCache(dir: string): ResourceCache {
	return {
		async get(url) {
			try {
				return new Uint8Array(await readFile(join(dir, cacheFileName(url))));
			} catch (err) {
				if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
				throw err;
			}
		},
		async put(url, bytes) {
			await mkdir(dir, { recursive: true });
			const final = join(dir, cacheFileName(url));
			const temp = `${final}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
			try {
				await writeFile(temp, bytes);
				await rename(temp, final);
			} catch (err) {
				await rm(temp, { force: true });
				throw err;
			}
		}
	};
}
