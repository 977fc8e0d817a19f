/**
 * Child process for nlpCache.test.ts: puts a large file into a directory cache over and over,
 * until the test SIGKILLs it mid-write. argv: <dir> <url> <bytes>.
 */
import { directoryCache } from '../../../src/cli/nlpCache.ts';

const [dir, url, size] = process.argv.slice(2);
const cache = directoryCache(dir);
const bytes = new Uint8Array(Number(size)).fill(0x5a);
for (;;) await cache.put(url, bytes);
