/**
 * A dataset file too large to read as one string (V8 stops at 512 MiB, with "Cannot create a
 * string longer than 0x1fffffe8 characters" and no file named) is refused by name and size.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATASET_FILE_MAX_BYTES, loadItems } from '../../../src/cli/run.ts';

describe('CLI: a dataset file too large to read', () => {
	it('names the file, its size and the limit before reading it', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'utp-big-'));
		try {
			const file = join(dir, 'huge.jsonl');
			writeFileSync(file, '{"question":"');
			truncateSync(file, 600 * 1024 * 1024); // sparse: no disk used
			await expect(loadItems(file, { stderr: { write: () => true } })).rejects.toThrow(
				`${file} is 600 MB; a dataset file may be at most ${DATASET_FILE_MAX_BYTES / 1024 ** 2} MB`
			);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
