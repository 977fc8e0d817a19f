/**
 * A bring-your-own GGUF's chat template, read from the file's metadata over HTTP range requests.
 * The files are written with the tiny-model helper's GGUF writer: real GGUF v3 layout, parsed by the
 * real @huggingface/gguf, served by a fake fetch that honours Range as a CDN does.
 */
import { describe, expect, it } from 'vitest';
import { MemoryTemplateCache } from '../../../src/lib/db/caches.ts';
import { templateFromGguf } from '../../../src/lib/setup/ggufTemplate.ts';
import { loadTemplate } from '../../../src/lib/setup/templates.ts';
import { stopSequences, userHeader } from '../../../src/lib/probe/template.ts';
import { readFixture } from '../../helpers/fixtures.ts';
import { writeGguf, type GgufValue } from '../../helpers/tinyModel/gguf.ts';

const QWEN = readFixture('templates/Qwen__Qwen2.5-0.5B-Instruct.jinja');
const URL_ = 'https://example.test/org/model/resolve/main/model-q8_0.gguf';

function ggufFile(extra: Record<string, GgufValue> = {}, tensorValues = 0): Uint8Array {
	// Many tokens before the template, as real files have, so the header spans several reads.
	const tokens = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];
	for (let i = 0; i < 60_000; i++) tokens.push(`tok${i}`);
	return writeGguf(
		{
			'general.architecture': { type: 'string', value: 'qwen2' },
			'tokenizer.ggml.tokens': { type: 'string[]', value: tokens },
			'tokenizer.ggml.bos_token_id': { type: 'u32', value: 0 },
			'tokenizer.ggml.eos_token_id': { type: 'u32', value: 2 },
			'tokenizer.chat_template': { type: 'string', value: QWEN },
			...extra
		},
		tensorValues > 0
			? [
					{
						name: 'weights',
						shape: [tensorValues],
						type: 'f32',
						data: new Float32Array(tensorValues)
					}
				]
			: []
	);
}

/** A fetch over one file: 206 for `Range: bytes=a-b`, 200 otherwise; records bytes sent. */
function rangeFetch(file: Uint8Array | null) {
	const log = { requests: 0, bytes: 0 };
	const fetch: typeof globalThis.fetch = async (_input, init) => {
		log.requests++;
		if (!file) return new Response('<html>Not found</html>', { status: 404 });
		const range = new Headers(init?.headers).get('range');
		const m = range ? /bytes=(\d+)-(\d*)/.exec(range) : null;
		const start = m ? Number(m[1]) : 0;
		const end = m && m[2] ? Math.min(Number(m[2]) + 1, file.length) : file.length;
		const body = file.slice(start, end);
		log.bytes += body.length;
		return new Response(body, {
			status: m ? 206 : 200,
			headers: { 'content-range': `bytes ${start}-${end - 1}/${file.length}` }
		});
	};
	return { fetch, log };
}

describe('templateFromGguf', () => {
	it('reads tokenizer.chat_template and the bos/eos texts, without downloading the weights', async () => {
		const file = ggufFile({}, 4_000_000);
		const { fetch, log } = rangeFetch(file);
		const t = await templateFromGguf(URL_, { fetch });
		expect(t.source).toBe(QWEN);
		expect(t.bos_token).toBe('<|endoftext|>');
		expect(t.eos_token).toBe('<|im_end|>');
		expect(t.repo).toBe(URL_);
		expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
		expect(
			userHeader(t, [
				{ role: 'user', content: 'Hi' },
				{ role: 'assistant', content: 'Hello' }
			])
		).toBe('<|im_start|>user\n');
		expect(stopSequences(t)).toContain('<|im_end|>');
		expect(log.bytes).toBeLessThan(file.length / 4);
	});

	it('says so when the file carries no chat template', async () => {
		const file = writeGguf({ 'general.architecture': { type: 'string', value: 'qwen2' } }, []);
		await expect(templateFromGguf(URL_, rangeFetch(file))).rejects.toThrow(
			/no tokenizer\.chat_template/
		);
	});

	it('explains a URL that is not a GGUF file (a 404 page)', async () => {
		await expect(templateFromGguf(URL_, rangeFetch(null))).rejects.toMatchObject({
			name: 'TemplateError',
			message: expect.stringContaining('could not read the GGUF header')
		});
	});

	it('says in words that a file cut off inside its header is not a whole GGUF file', async () => {
		const cut = ggufFile().slice(0, 200_000);
		const err = await templateFromGguf(URL_, rangeFetch(cut)).catch((e: Error) => e);
		expect(err).toMatchObject({ name: 'TemplateError' });
		expect((err as Error).message).toContain(
			`${URL_}: could not read the GGUF header: it ends early`
		);
		expect((err as Error).message).not.toContain('DataView');
	});

	it('passes the caller’s abort through', async () => {
		const ctrl = new AbortController();
		ctrl.abort();
		const fetch = (async (_: RequestInfo | URL, init?: RequestInit) => {
			init?.signal?.throwIfAborted();
			return new Response('');
		}) as typeof globalThis.fetch;
		await expect(templateFromGguf(URL_, { fetch, signal: ctrl.signal })).rejects.toMatchObject({
			name: 'AbortError'
		});
	});
});

describe('loadTemplate({ kind: "gguf" })', () => {
	it('caches the template under the file URL: a second load reads nothing', async () => {
		const { fetch, log } = rangeFetch(ggufFile());
		const cache = new MemoryTemplateCache();
		const first = await loadTemplate({ kind: 'gguf', url: URL_ }, { fetch, cache });
		const reads = log.requests;
		expect(reads).toBeGreaterThan(0);
		const second = await loadTemplate({ kind: 'gguf', url: URL_ }, { fetch, cache });
		expect(log.requests).toBe(reads);
		expect(second).toEqual(first);
	});
});
