import { describe, expect, it } from 'vitest';
import { probePrompt, TemplateError } from '../../../src/lib/probe/template.ts';
import {
	fetchChatTemplate,
	parseTokenizerConfig,
	templateFromFile
} from '../../../src/lib/probe/templateSource.ts';
import type { FetchLike } from '../../../src/lib/net/fetch.ts';
import { readFixture } from '../../helpers/fixtures.ts';

interface IndexEntry {
	file: string;
	bos_token: string | null;
	eos_token: string | null;
	sha256: string;
}

const index = JSON.parse(readFixture('templates/index.json')) as Record<string, IndexEntry>;
const QWEN25 = 'Qwen/Qwen2.5-0.5B-Instruct';
const qwenSource = readFixture(`templates/${index[QWEN25].file}`);
const SIMPLE = '{% for m in messages %}<{{ m.role }}>{{ m.content }}</s>{% endfor %}';

type Reply = { status: number; body?: string; retryAfter?: string } | Error;

/**
 * A fetch that answers from a URL → reply table and records what was asked. A list answers its
 * replies in turn (the last one again once they run out), as a server that recovers does.
 */
function stubFetch(replies: Record<string, Reply | Reply[]>) {
	const calls: { url: string; signal?: AbortSignal }[] = [];
	const fetch: FetchLike = async (url, init) => {
		calls.push({ url, signal: init?.signal });
		if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
		const listed = replies[url] ?? { status: 404 };
		const turn = calls.filter((c) => c.url === url).length - 1;
		const reply = Array.isArray(listed) ? listed[Math.min(turn, listed.length - 1)] : listed;
		if (reply instanceof Error) throw reply;
		const headers = new Headers(reply.retryAfter ? { 'Retry-After': reply.retryAfter } : {});
		return {
			ok: reply.status < 400,
			status: reply.status,
			headers,
			text: async () => reply.body ?? ''
		};
	};
	return { fetch, calls };
}

/** The retry wait, instant, noting each delay asked for. */
function instantSleep() {
	const waits: number[] = [];
	const sleep = async (ms: number) => {
		waits.push(ms);
	};
	return { sleep, waits };
}

const configUrl = (repo: string, base = 'https://huggingface.co') =>
	`${base}/${repo}/resolve/main/tokenizer_config.json`;

describe('parseTokenizerConfig', () => {
	it('reads a string chat_template and plain token strings, hashing the source', async () => {
		const json = JSON.stringify({
			chat_template: qwenSource,
			bos_token: null,
			eos_token: '<|im_end|>'
		});
		const t = await parseTokenizerConfig(json, QWEN25);
		expect(t).toEqual({
			source: qwenSource,
			bos_token: null,
			eos_token: '<|im_end|>',
			sha256: index[QWEN25].sha256,
			repo: QWEN25
		});
	});

	it('reads AddedToken-style { content } special tokens', async () => {
		const json = JSON.stringify({
			chat_template: SIMPLE,
			bos_token: { content: '<s>', lstrip: false, __type: 'AddedToken' },
			eos_token: { content: '</s>' }
		});
		const t = await parseTokenizerConfig(json, 'org/model');
		expect([t.bos_token, t.eos_token]).toEqual(['<s>', '</s>']);
	});

	it('treats an absent bos token as null', async () => {
		const t = await parseTokenizerConfig(JSON.stringify({ chat_template: SIMPLE }), 'org/model');
		expect([t.bos_token, t.eos_token]).toEqual([null, null]);
	});

	it('picks the "default" entry of a list of named templates', async () => {
		const json = JSON.stringify({
			chat_template: [
				{ name: 'tool_use', template: '{{ raise_exception("tools only") }}' },
				{ name: 'default', template: SIMPLE }
			]
		});
		expect((await parseTokenizerConfig(json, 'org/model')).source).toBe(SIMPLE);
	});

	it.each([
		['no chat_template', JSON.stringify({ eos_token: '</s>' }), /has no chat_template/],
		['invalid JSON', '{"chat_template": ', /not valid JSON/],
		['a JSON array', '[]', /not an object/],
		[
			'named templates without a default',
			JSON.stringify({ chat_template: [{ name: 'rag', template: SIMPLE }] }),
			/no "default" template \(has "rag"\)/
		],
		['a numeric chat_template', JSON.stringify({ chat_template: 3 }), /neither text nor a list/],
		[
			'a template that does not parse',
			JSON.stringify({ chat_template: '{% if %}' }),
			/does not parse/
		]
	])('rejects %s with a TemplateError', async (_name, json, message) => {
		const parsed = parseTokenizerConfig(json, 'org/model');
		await expect(parsed).rejects.toThrow(TemplateError);
		await expect(parseTokenizerConfig(json, 'org/model')).rejects.toThrow(message);
	});
});

describe('fetchChatTemplate', () => {
	const mlc = 'mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
	const qwenConfig = JSON.stringify({ chat_template: qwenSource, eos_token: '<|im_end|>' });

	it('falls back from the MLC repo to the original and renders the known probe prompt', async () => {
		const { fetch, calls } = stubFetch({ [configUrl(QWEN25)]: { status: 200, body: qwenConfig } });
		const signal = new AbortController().signal;
		const t = await fetchChatTemplate({ repos: [mlc, QWEN25], fetch, signal });
		// A 404 is an answer, not a hiccup: no retry before the next repo.
		expect(calls.map((c) => c.url)).toEqual([configUrl(mlc), configUrl(QWEN25)]);
		expect(t.repo).toBe(QWEN25);
		expect(
			probePrompt(t, [
				{ role: 'user', content: 'Q?' },
				{ role: 'assistant', content: 'A.' }
			])
		).toBe(
			'<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\nA.<|im_end|>\n<|im_start|>user\n'
		);
	});

	it('stops at the first repo that has a template', async () => {
		const { fetch, calls } = stubFetch({
			[configUrl(mlc)]: { status: 200, body: qwenConfig },
			[configUrl(QWEN25)]: { status: 200, body: qwenConfig }
		});
		expect((await fetchChatTemplate({ repos: [mlc, QWEN25], fetch })).repo).toBe(mlc);
		expect(calls).toHaveLength(1);
	});

	it('reads chat_template.jinja beside a config that has no chat_template', async () => {
		const { fetch } = stubFetch({
			[configUrl('org/new')]: { status: 200, body: JSON.stringify({ eos_token: '</s>' }) },
			'https://huggingface.co/org/new/resolve/main/chat_template.jinja': {
				status: 200,
				body: SIMPLE
			}
		});
		const t = await fetchChatTemplate({ repos: ['org/new'], fetch });
		expect([t.source, t.eos_token, t.repo]).toEqual([SIMPLE, '</s>', 'org/new']);
	});

	it('names every URL it tried and why when no repo has a template', async () => {
		const { fetch } = stubFetch({
			[configUrl('a/gone')]: { status: 404 },
			[configUrl('b/offline')]: new TypeError('fetch failed'),
			[configUrl('c/bare')]: { status: 200, body: '{}' },
			[configUrl('d/broken')]: { status: 200, body: 'not json' }
		});
		const attempt = fetchChatTemplate({
			repos: ['a/gone', 'b/offline', 'c/bare', 'd/broken'],
			fetch,
			sleep: instantSleep().sleep
		});
		await expect(attempt).rejects.toThrow(TemplateError);
		const message = await attempt.then(
			() => '',
			(err: Error) => err.message
		);
		expect(message.split('\n')).toEqual([
			'No chat template found. Tried:',
			`- ${configUrl('a/gone')}: HTTP 404`,
			`- ${configUrl('b/offline')}: no answer from huggingface.co after 2 attempts: fetch failed`,
			`- ${configUrl('c/bare')}: no chat_template`,
			'- https://huggingface.co/c/bare/resolve/main/chat_template.jinja: HTTP 404',
			`- ${configUrl('d/broken')}: d/broken: tokenizer_config.json is not valid JSON`
		]);
	});

	it('gives up on an aborted signal instead of trying the next repo', async () => {
		const { fetch, calls } = stubFetch({ [configUrl(QWEN25)]: { status: 200, body: qwenConfig } });
		const controller = new AbortController();
		controller.abort();
		const attempt = fetchChatTemplate({ repos: [mlc, QWEN25], fetch, signal: controller.signal });
		await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
		expect(calls).toHaveLength(0);
	});

	it('aborts the request in flight when the caller cancels', async () => {
		const controller = new AbortController();
		const seen: AbortSignal[] = [];
		const fetch: FetchLike = (_url, init) =>
			new Promise((_, reject) => {
				if (init?.signal) seen.push(init.signal);
				init?.signal?.addEventListener('abort', () =>
					reject(new DOMException('The operation was aborted.', 'AbortError'))
				);
			});
		const attempt = fetchChatTemplate({ repos: [QWEN25], fetch, signal: controller.signal });
		await new Promise((resolve) => setTimeout(resolve, 5));
		controller.abort();
		await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
		expect(seen.map((s) => s.aborted)).toEqual([true]);
	});

	it('tries the Hub again after a 503 or 429, waiting as long as its Retry-After says', async () => {
		const { sleep, waits } = instantSleep();
		const { fetch, calls } = stubFetch({
			[configUrl(QWEN25)]: [
				{ status: 503, body: 'busy' },
				{ status: 429, body: 'slow down', retryAfter: '2' },
				{ status: 200, body: qwenConfig }
			]
		});
		const t = await fetchChatTemplate({ repos: [QWEN25], fetch, sleep });
		expect(t.repo).toBe(QWEN25);
		expect(calls).toHaveLength(3);
		expect(waits).toHaveLength(2);
		expect(waits[1]).toBe(2_000);
	});

	it('tries a dropped connection once more, then the next repo', async () => {
		const { sleep } = instantSleep();
		const { fetch, calls } = stubFetch({
			[configUrl(mlc)]: [new TypeError('fetch failed'), { status: 200, body: qwenConfig }]
		});
		expect((await fetchChatTemplate({ repos: [mlc, QWEN25], fetch, sleep })).repo).toBe(mlc);
		expect(calls.map((c) => c.url)).toEqual([configUrl(mlc), configUrl(mlc)]);
	});

	it('moves on to the next repo when the Hub keeps failing, saying so', async () => {
		const { sleep } = instantSleep();
		const { fetch } = stubFetch({
			[configUrl(mlc)]: { status: 502, body: 'bad gateway' },
			[configUrl(QWEN25)]: { status: 200, body: qwenConfig }
		});
		expect((await fetchChatTemplate({ repos: [mlc, QWEN25], fetch, sleep })).repo).toBe(QWEN25);
		const failing = stubFetch({ [configUrl(mlc)]: { status: 502 } });
		await expect(fetchChatTemplate({ repos: [mlc], fetch: failing.fetch, sleep })).rejects.toThrow(
			`${configUrl(mlc)}: HTTP 502 on every attempt`
		);
		expect(failing.calls).toHaveLength(5);
	});

	it('uses a custom hub base, with or without a trailing slash', async () => {
		const base = 'http://127.0.0.1:9999/hf';
		const { fetch, calls } = stubFetch({
			[configUrl(QWEN25, base)]: { status: 200, body: qwenConfig }
		});
		await fetchChatTemplate({ repos: [QWEN25], fetch, hfBase: `${base}/` });
		expect(calls.map((c) => c.url)).toEqual([configUrl(QWEN25, base)]);
	});

	it('refuses to guess when given no repos', async () => {
		const { fetch } = stubFetch({});
		await expect(fetchChatTemplate({ repos: [], fetch })).rejects.toThrow(
			/No chat template found. Tried: \(no repositories given\)/
		);
	});
});

describe('templateFromFile', () => {
	it('keeps the given tokens and hashes the source', async () => {
		const t = await templateFromFile('{{ bos_token }}' + SIMPLE, { bos_token: '<s>' });
		expect(t.bos_token).toBe('<s>');
		expect(t.eos_token).toBeNull();
		// Computed independently: printf '%s' '<source>' | sha256sum
		expect(t.sha256).toBe('7d9713f6382e1df58a9359df78949d29d566b24e4ec9559595846a5918dd7d60');
		expect(t.repo).toBeUndefined();
	});

	it('hashes as sha256 of the UTF-8 bytes', async () => {
		const t = await templateFromFile(readFixture('templates/google__gemma-2-2b-it.jinja'), {
			bos_token: '<bos>',
			eos_token: '<eos>'
		});
		expect(t.sha256).toBe(index['google/gemma-2-2b-it'].sha256);
	});

	it('rejects a file that cannot render a probe exchange', async () => {
		const dropsAssistant =
			'{% for m in messages %}{% if m.role == "user" %}{{ m.content }}{% endif %}{% endfor %}';
		await expect(templateFromFile(dropsAssistant, {})).rejects.toThrow(TemplateError);
	});
});
