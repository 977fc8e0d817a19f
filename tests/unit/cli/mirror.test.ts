/**
 * `user-turn-probe mirror` against a stand-in Hub on 127.0.0.1 (tests/helpers/hubServer.ts, which
 * answers as the Hub does: LFS files behind a redirect carrying their size and sha256): the
 * layout and index.json it writes, a resumed download, a damaged file fetched again, and the
 * faults a teacher meets (a model the Hub does not have, a wrong --model).
 */
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { createHash, randomBytes } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mirrorCommand, parseMirrorArgs } from '../../../src/cli/mirror.ts';
import { DEFAULT_CPU_GENERATOR, findGguf, ggufUrl } from '../../../src/lib/engines/cpu/catalog.ts';
import { mirrorPath, parseMirrorManifest } from '../../../src/lib/engines/mirror.ts';
import { mirroredRecord, modelFileUrl } from '../../../src/lib/engines/webgpu/custom.ts';
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

async function run(
	args: string[] = ['--model', entry.key]
): Promise<{ code: number; log: string }> {
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
		const part = join(out, `${WEIGHTS}.part`);
		// The connection drops once the bytes sent are on disk: a cut before the client read any
		// of them (a loaded machine reads late) would leave nothing to resume.
		hub.cutOnce(WEIGHTS, 120_000, () => existsSync(part) && statSync(part).size === 120_000);
		const first = await run();
		expect(first.code).toBe(1);
		expect(first.log).toMatch(/run the same command again to resume/);
		expect(existsSync(join(out, WEIGHTS))).toBe(false);
		const partial = statSync(part).size;
		expect(partial).toBe(120_000);

		const second = await run();
		expect(second.code).toBe(0);
		expect(second.log).toMatch(new RegExp(`${entry.file}: resumed`));
		expect(gets(WEIGHTS).at(-1)).toBe(`GET /cdn/${WEIGHTS} bytes=${partial}-`);
		expect(readFileSync(join(out, WEIGHTS)).equals(weights)).toBe(true);
		expect(existsSync(join(out, `${WEIGHTS}.part`))).toBe(false);
	});

	it('keeps every byte that arrived when the connection breaks, and resumes from them', async () => {
		const CUT = 120_000;
		const CHUNK = 16_384;
		// The download as a dropped connection ends it: the bytes that came, then fetch's error.
		const dropping: typeof fetch = async (input, init) => {
			const res = await fetch(input, init);
			if (init?.method === 'HEAD' || !String(input).endsWith(entry.file)) return res;
			const bytes = new Uint8Array(await res.arrayBuffer()).subarray(0, CUT);
			let at = 0;
			const body = new ReadableStream<Uint8Array>({
				pull(controller) {
					if (at >= bytes.length) return controller.error(new TypeError('terminated'));
					controller.enqueue(bytes.slice(at, (at += CHUNK)));
				}
			});
			return new Response(body, { status: res.status, headers: res.headers });
		};
		let log = '';
		const code = await mirrorCommand(
			parseMirrorArgs(['--out', out, '--from', hub.base, '--model', entry.key]),
			{ stderr: { write: (s: string) => (log += s) }, fetch: dropping }
		);
		expect(code).toBe(1);
		expect(log).toMatch(/terminated/);
		// A pipeline destroyed the file on the error and dropped the writes still queued.
		const kept = readFileSync(join(out, `${WEIGHTS}.part`));
		expect(kept.byteLength).toBe(CUT);
		expect(kept.equals(weights.subarray(0, CUT))).toBe(true);

		const second = await run();
		expect(second.code).toBe(0);
		expect(gets(WEIGHTS).at(-1)).toBe(`GET /cdn/${WEIGHTS} bytes=${CUT}-`);
		expect(readFileSync(join(out, WEIGHTS)).equals(weights)).toBe(true);
	});

	it('takes a .part that already holds the whole file without asking the host for more', async () => {
		// Cut after its last byte: a Range from its end would be refused (416) on every run.
		mkdirSync(dirname(join(out, WEIGHTS)), { recursive: true });
		writeFileSync(join(out, `${WEIGHTS}.part`), weights);
		const { code, log } = await run();
		expect(code, log).toBe(0);
		expect(gets(WEIGHTS)).toEqual([]);
		expect(log).toMatch(new RegExp(`${entry.file}: resumed`));
		expect(readFileSync(join(out, WEIGHTS)).equals(weights)).toBe(true);

		// One that is whole in size but not in content is dropped and fetched again.
		rmSync(join(out, WEIGHTS));
		const wrong = Buffer.from(weights);
		wrong[7] ^= 0xff;
		writeFileSync(join(out, `${WEIGHTS}.part`), wrong);
		expect((await run()).code).toBe(1);
		expect(existsSync(join(out, `${WEIGHTS}.part`))).toBe(false);
		expect((await run()).code).toBe(0);
		expect(readFileSync(join(out, WEIGHTS)).equals(weights)).toBe(true);
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

	it("copies the classroom preset's models on both engines by default", () => {
		const { models } = parseMirrorArgs(['--out', out]);
		expect(models.map((m) => (m.engine === 'cpu' ? m.entry.key : m.variant.id))).toEqual([
			DEFAULT_CPU_GENERATOR,
			'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
			'Qwen2.5-0.5B-Instruct-q4f32_1-MLC'
		]);
	});

	it('refuses a model the catalog does not have, and a missing --out', () => {
		expect(() => parseMirrorArgs(['--out', out, '--model', 'gpt-9'])).toThrow(
			/"gpt-9" is not a catalog model/
		);
		expect(() => parseMirrorArgs(['--model', entry.key])).toThrow(/needs --out/);
		expect(() => parseMirrorArgs(['--out', out, '--from', 'ftp://x'])).toThrow(/not an http/);
	});
});

describe('user-turn-probe mirror: a WebGPU (MLC) model', () => {
	const MLC = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
	const record = prebuiltAppConfig.model_list.find((r) => r.model_id === MLC);
	if (!record) throw new Error(`${MLC} is not in prebuiltAppConfig`);
	const REPO = `mlc-ai/${MLC}/resolve/main`;
	const LIB = mirrorPath(record.model_lib) as string;
	const shards = [randomBytes(70_000), randomBytes(50_000)];
	const mlcFiles = (cache: 'tensor-cache.json' | 'ndarray-cache.json'): Record<string, Buffer> => ({
		[`${REPO}/mlc-chat-config.json`]: Buffer.from(
			JSON.stringify({
				model_type: 'qwen2',
				tokenizer_files: ['tokenizer.json', 'vocab.json', 'tokenizer_config.json']
			})
		),
		// A tensor cache as mlc_llm convert_weight writes it: its records name the shards.
		[`${REPO}/${cache}`]: Buffer.from(
			JSON.stringify({
				metadata: { ParamSize: 2, ParamBytes: 120_000 },
				records: shards.map((b, i) => ({
					dataPath: `params_shard_${i}.bin`,
					format: 'raw-shard',
					nbytes: b.byteLength,
					records: []
				}))
			})
		),
		[`${REPO}/params_shard_0.bin`]: shards[0],
		[`${REPO}/params_shard_1.bin`]: shards[1],
		[`${REPO}/tokenizer.json`]: Buffer.from('{"model":{"type":"BPE"}}'),
		[`${REPO}/tokenizer_config.json`]: Buffer.from('{}'),
		[LIB]: randomBytes(40_000)
	});
	let mlcHub: HubServer;

	async function mirrorMlc(files: Record<string, Uint8Array>) {
		mlcHub = await serveHub(files);
		let log = '';
		const code = await mirrorCommand(
			parseMirrorArgs(['--out', out, '--from', mlcHub.base, '--model', MLC]),
			{ stderr: { write: (s: string) => (log += s) } }
		);
		return { code, log };
	}
	afterEach(async () => {
		await mlcHub?.close();
	});

	it("copies the repo's files as its tensor cache lists them, and the model library, into the paths web-llm reads", async () => {
		const files = mlcFiles('tensor-cache.json');
		const { code, log } = await mirrorMlc(files);
		expect(code, log).toBe(0);
		const copied = Object.keys(files).filter((p) => !p.endsWith('vocab.json'));
		for (const path of copied) expect(readFileSync(join(out, path)).equals(files[path])).toBe(true);
		// vocab.json is named by the config but not in the repo: web-llm does not read it.
		expect(log).toMatch(/vocab\.json: not on .* \(skipped\)/);
		const manifest = parseMirrorManifest(index());
		for (const path of copied) {
			expect(manifest.files[path]).toEqual({
				size: files[path].byteLength,
				sha256: sha(files[path])
			});
		}
		// The size the app shows before any download: every file web-llm fetches.
		const total = copied.reduce((n, p) => n + files[p].byteLength, 0);
		expect(manifest.models[MLC]).toEqual({ bytes: total, files: expect.arrayContaining(copied) });
		// What the app hands web-llm with this mirror names exactly these files.
		const base = 'http://school.example/kit';
		const mirrored = mirroredRecord(record, base);
		const at = (url: string) => url.slice(base.length + 1);
		expect(at(modelFileUrl({ model_url: mirrored.model }, 'mlc-chat-config.json'))).toBe(
			`${REPO}/mlc-chat-config.json`
		);
		expect(at(modelFileUrl({ model_url: mirrored.model }, 'tensor-cache.json'))).toBe(
			`${REPO}/tensor-cache.json`
		);
		expect(at(mirrored.model_lib)).toBe(LIB);
	});

	it('takes the shard list from an older repo whose list is ndarray-cache.json', async () => {
		const files = mlcFiles('ndarray-cache.json');
		const { code, log } = await mirrorMlc(files);
		expect(code, log).toBe(0);
		expect(log).toMatch(/tensor-cache\.json: not on .* \(skipped\)/);
		expect(readFileSync(join(out, REPO, 'params_shard_1.bin')).equals(shards[1])).toBe(true);
		expect(index().models[MLC].files).toContain(`${REPO}/params_shard_0.bin`);
	});

	it('a shard the source lacks fails naming it, and the model is not listed as whole', async () => {
		const files = mlcFiles('tensor-cache.json');
		delete files[`${REPO}/params_shard_1.bin`];
		const { code, log } = await mirrorMlc(files);
		expect(code).toBe(1);
		expect(log).toContain(
			`${REPO}/params_shard_1.bin: failed: ${mlcHub.base}/${REPO}/params_shard_1.bin: HTTP 404`
		);
		expect(index().models[MLC]).toBeUndefined();
		// What did come is listed, so the next run keeps it.
		expect(index().files[`${REPO}/params_shard_0.bin`].size).toBe(shards[0].byteLength);
	});

	it('a repo without a tensor cache, or a config that is not JSON, is said plainly', async () => {
		const files = mlcFiles('tensor-cache.json');
		delete files[`${REPO}/tensor-cache.json`];
		const none = await mirrorMlc(files);
		expect(none.code).toBe(1);
		expect(none.log).toMatch(/tensor-cache\.json: failed: .*HTTP 404/);
		await mlcHub.close();

		const broken = mlcFiles('tensor-cache.json');
		broken[`${REPO}/mlc-chat-config.json`] = Buffer.from('<html>Sign in</html>');
		const bad = await mirrorMlc(broken);
		expect(bad.code).toBe(1);
		expect(bad.log).toMatch(/mlc-chat-config\.json: failed: not JSON/);
	});

	it('refuses a shard path that climbs out of the repo', async () => {
		const files = mlcFiles('tensor-cache.json');
		files[`${REPO}/tensor-cache.json`] = Buffer.from(
			JSON.stringify({ records: [{ dataPath: '../../../../evil.bin' }] })
		);
		const { log } = await mirrorMlc(files);
		expect(log).not.toMatch(/evil/);
		expect(existsSync(join(out, '..', 'evil.bin'))).toBe(false);
	});
});
