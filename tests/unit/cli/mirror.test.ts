/**
 * `user-turn-probe mirror` against a stand-in Hub on 127.0.0.1 (tests/helpers/hubServer.ts, which
 * answers as the Hub does: LFS files behind a redirect carrying their size and sha256): the
 * layout and index.json it writes, a resumed download, a damaged file fetched again, and the
 * faults a teacher meets (a model the Hub does not have, a wrong --model).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mirrorCommand, parseMirrorArgs } from '../../../src/cli/mirror.ts';
import { findGguf, ggufUrl } from '../../../src/lib/engines/cpu/catalog.ts';
import { parseMirrorManifest } from '../../../src/lib/engines/mirror.ts';
import { serveHub, type HubServer } from '../../helpers/hubServer.ts';

const entry = catalogEntry('qwen2.5-0.5b-instruct-q4_k_m');
const WEIGHTS = `${entry.repo}/resolve/main/${entry.file}`;
const CONFIG = `${entry.template_repo}/resolve/main/tokenizer_config.json`;
function catalogEntry(key: string) {
	const e = findGguf(key);
	if (!e) throw new Error(`no catalog entry ${key}`);
	return e;
}
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let hub: HubServer;
let out: string;
const weights = randomBytes(300_000);
const config = Buffer.from(JSON.stringify({ chat_template: '{{ messages }}', eos_token: '<e>' }));

beforeEach(async () => {
	hub = await serveHub({ [WEIGHTS]: weights, [CONFIG]: config });
	out = mkdtempSync(join(tmpdir(), 'utp-mirror-'));
});
afterEach(async () => {
	await hub.close();
	rmSync(out, { recursive: true, force: true });
});

async function run(args: string[] = []): Promise<{ code: number; log: string }> {
	let log = '';
	const code = await mirrorCommand(parseMirrorArgs(['--out', out, '--from', hub.base, ...args]), {
		stderr: { write: (s: string) => (log += s) }
	});
	return { code, log };
}

const index = () => JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
const gets = (path: string) => hub.requests.filter((r) => r.startsWith(`GET /cdn/${path}`));

describe('user-turn-probe mirror', () => {
	it("writes the Hub's layout and an index.json with each file's size and sha256", async () => {
		const { code, log } = await run();
		expect(code).toBe(0);
		expect(readFileSync(join(out, WEIGHTS)).equals(weights)).toBe(true);
		expect(readFileSync(join(out, CONFIG)).equals(config)).toBe(true);
		const doc = index();
		expect(doc.files[WEIGHTS]).toEqual({ size: weights.byteLength, sha256: sha(weights) });
		expect(doc.files[CONFIG]).toEqual({ size: config.byteLength, sha256: sha(config) });
		// The app's reader takes it, and the model's size is the download the browser makes.
		const manifest = parseMirrorManifest(doc);
		expect(manifest.models[ggufUrl(entry)]).toEqual({
			bytes: weights.byteLength,
			files: [WEIGHTS, CONFIG]
		});
		expect(log).toMatch(/downloaded/);
		expect(log).toMatch(/npx http-server .* --cors/);
	});

	it("keeps the class's example runs listed in the same index.json", async () => {
		const examples = [{ file: 'runs/a.jsonl', title: 'Ours' }];
		writeFileSync(join(out, 'index.json'), JSON.stringify({ examples }));
		expect((await run()).code).toBe(0);
		expect(index().examples).toEqual(examples);
		expect(index().files[WEIGHTS].size).toBe(weights.byteLength);
	});

	it('resumes an interrupted download from where it stopped (HTTP Range)', async () => {
		hub.cutOnce(WEIGHTS, 120_000);
		const first = await run();
		expect(first.code).toBe(1);
		expect(first.log).toMatch(/run the same command again to resume/);
		expect(existsSync(join(out, WEIGHTS))).toBe(false);
		const partial = statSync(join(out, `${WEIGHTS}.part`)).size;
		expect(partial).toBeGreaterThan(0);
		expect(partial).toBeLessThan(weights.byteLength);

		const second = await run();
		expect(second.code).toBe(0);
		expect(second.log).toMatch(new RegExp(`${entry.file}: resumed`));
		expect(gets(WEIGHTS).at(-1)).toBe(`GET /cdn/${WEIGHTS} bytes=${partial}-`);
		expect(readFileSync(join(out, WEIGHTS)).equals(weights)).toBe(true);
		expect(existsSync(join(out, `${WEIGHTS}.part`))).toBe(false);
	});

	it('a second run keeps what is whole and fetches nothing again', async () => {
		await run();
		const before = gets(WEIGHTS).length;
		const { code, log } = await run();
		expect(code).toBe(0);
		expect(gets(WEIGHTS).length).toBe(before);
		expect(log).toMatch(new RegExp(`${entry.file}: kept`));
	});

	it('detects a damaged file by its checksum and fetches it again', async () => {
		await run();
		const damaged = Buffer.from(weights);
		damaged[1234] ^= 0xff; // same size, one byte changed
		writeFileSync(join(out, WEIGHTS), damaged);
		const { code, log } = await run();
		expect(code).toBe(0);
		expect(log).toMatch(/damaged \(size or sha256 differs\), fetching it again/);
		expect(log).toMatch(new RegExp(`${entry.file}: refetched`));
		expect(readFileSync(join(out, WEIGHTS)).equals(weights)).toBe(true);
		expect(index().files[WEIGHTS].sha256).toBe(sha(weights));
	});

	it('a file cut short on disk is fetched again too', async () => {
		await run();
		writeFileSync(join(out, WEIGHTS), weights.subarray(0, 1000));
		const { code, log } = await run();
		expect(code).toBe(0);
		expect(log).toMatch(/refetched/);
		expect(statSync(join(out, WEIGHTS)).size).toBe(weights.byteLength);
	});

	it('says which file the source does not have, and exits 1', async () => {
		const { code, log } = await run(['--model', 'smollm2-360m-instruct-q8_0']);
		expect(code).toBe(1);
		expect(log).toContain(
			'HuggingFaceTB/SmolLM2-360M-Instruct-GGUF/resolve/main/smollm2-360m-instruct-q8_0.gguf'
		);
		expect(log).toMatch(/HTTP 404/);
	});

	it('refuses a model the catalog does not have, and a missing --out', () => {
		expect(() => parseMirrorArgs(['--out', out, '--model', 'gpt-9'])).toThrow(
			/"gpt-9" is not a catalog model/
		);
		expect(() => parseMirrorArgs(['--model', entry.key])).toThrow(/needs --out/);
		expect(() => parseMirrorArgs(['--out', out, '--from', 'ftp://x'])).toThrow(/not an http/);
	});
});
