/**
 * bin/user-turn-probe.js starts the prebuilt bundle when it is at least as new as every project
 * source it was built from, and the TypeScript sources (through tsx) otherwise, so an edit is never
 * hidden behind a stale bundle. Checked on a copy of the launcher in a scratch tree.
 */
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	symlinkSync,
	utimesSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { nodeFlagsOf } from '../../bench/cli100k.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const main = (who: string) =>
	`export async function main(argv) { process.stdout.write('${who} ' + argv.join(' ')); return 3; }\n`;

describe('the CLI launcher', () => {
	let dir: string;
	const run = () => {
		try {
			return {
				out: execFileSync('node', [join(dir, 'bin/user-turn-probe.js'), 'a', 'b']).toString(),
				code: 0
			};
		} catch (err) {
			const e = err as { stdout: Buffer; status: number };
			return { out: e.stdout.toString(), code: e.status };
		}
	};
	const age = (path: string, seconds: number) => {
		const t = new Date(Date.now() - seconds * 1000);
		utimesSync(join(dir, path), t, t);
	};

	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'utp-bin-'));
		mkdirSync(join(dir, 'bin/dist'), { recursive: true });
		mkdirSync(join(dir, 'src/cli'), { recursive: true });
		copyFileSync(join(REPO, 'bin/user-turn-probe.js'), join(dir, 'bin/user-turn-probe.js'));
		symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
		writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
		writeFileSync(join(dir, 'src/cli/probe.ts'), main('sources'));
		writeFileSync(join(dir, 'bin/dist/probe.js'), main('bundle'));
		const inputs = { 'src/cli/probe.ts': {}, 'node_modules/x/index.js': {} };
		writeFileSync(join(dir, 'bin/dist/meta.json'), JSON.stringify({ inputs }));
	});

	it('runs the bundle when no source is newer, passing the arguments and the exit code', () => {
		age('src/cli/probe.ts', 60);
		expect(run()).toEqual({ out: 'bundle a b', code: 3 });
	});

	it('runs the sources when one was edited after the bundle was built', () => {
		age('bin/dist/probe.js', 60);
		expect(run()).toEqual({ out: 'sources a b', code: 3 });
	});

	it('runs the sources when the bundle or its metafile is missing', () => {
		writeFileSync(join(dir, 'bin/dist/meta.json'), 'not json');
		age('src/cli/probe.ts', 60);
		expect(run().out).toBe('sources a b');
	});

	it('started as a command, runs with the old-space limit its shebang sets', () => {
		age('src/cli/probe.ts', 60);
		writeFileSync(
			join(dir, 'bin/dist/probe.js'),
			"import v8 from 'node:v8';\nexport async function main() { process.stdout.write(String(v8.getHeapStatistics().heap_size_limit / 2 ** 20)); return 0; }\n"
		);
		const limitMB = Number(execFileSync(join(dir, 'bin/user-turn-probe.js')).toString());
		const [flag] = nodeFlagsOf(readFileSync(join(REPO, 'bin/user-turn-probe.js'), 'utf8'));
		const oldSpaceMB = Number(/^--max-old-space-size=(\d+)$/.exec(flag)?.[1]);
		// The limit is old space plus the young generation's few tens of MB; Node's own default
		// here is 2–4 GB.
		expect(limitMB).toBeGreaterThanOrEqual(oldSpaceMB);
		expect(limitMB).toBeLessThan(oldSpaceMB + 100);
	});
});
