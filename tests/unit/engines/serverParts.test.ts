/** Golden tables for the OpenAI engine's pure pieces: SSE framing, URLs, errors. */
import { describe, expect, it } from 'vitest';
import {
	addressSpace,
	normalizeBaseUrl,
	serverMessage
} from '../../../src/lib/engines/server/http.ts';
import {
	fallbackFor,
	messagesFor,
	responseFormat
} from '../../../src/lib/engines/server/jsonMode.ts';
import { HttpError } from '../../../src/lib/engines/server/http.ts';
import { SseParser } from '../../../src/lib/engines/server/sse.ts';
import { mapFinish } from '../../../src/lib/engines/server/stream.ts';

function parseChunks(chunks: (string | Uint8Array)[]): string[] {
	const parser = new SseParser();
	const encoder = new TextEncoder();
	const out: string[] = [];
	for (const c of chunks) out.push(...parser.push(typeof c === 'string' ? encoder.encode(c) : c));
	out.push(...parser.end());
	return out;
}

const O_UMLAUT = new TextEncoder().encode('ö'); // two bytes

const SSE_CASES: { name: string; chunks: (string | Uint8Array)[]; events: string[] }[] = [
	{ name: 'LF framing', chunks: ['data: a\n\ndata: b\n\n'], events: ['a', 'b'] },
	{
		name: 'CRLF framing',
		chunks: ['data: a\r\n\r\ndata: [DONE]\r\n\r\n'],
		events: ['a', '[DONE]']
	},
	{ name: 'bare CR framing', chunks: ['data: a\r\rdata: b\r\r'], events: ['a', 'b'] },
	{
		name: 'a line split across reads',
		chunks: ['da', 'ta: {"x"', ':1}\n', '\n'],
		events: ['{"x":1}']
	},
	{
		name: 'CR and LF in different reads, inside a multi-line event',
		chunks: ['data: one\r', '\ndata: two\r\n\r\n'],
		events: ['one\ntwo']
	},
	{
		name: 'a character split across reads',
		chunks: ['data: w', O_UMLAUT.slice(0, 1), O_UMLAUT.slice(1), 'rld\n\n'],
		events: ['wörld']
	},
	{ name: 'no space after the colon', chunks: ['data:tight\n\n'], events: ['tight'] },
	{
		name: 'comments and other fields',
		chunks: [': ping\nevent: x\nid: 3\ndata: kept\n\n'],
		events: ['kept']
	},
	{ name: 'blank lines without data', chunks: ['\n\n\ndata: a\n\n\n'], events: ['a'] },
	{
		name: "older llama-server's error field, as an error event",
		chunks: [
			'data: {"a":1}\n\nerror: {"code":500,"message":"Context size has been exceeded.","type":"server_error"}\n\n'
		],
		events: [
			'{"a":1}',
			'{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}'
		]
	},
	{
		name: 'an error field that is not JSON',
		chunks: ['error: boom\n\n'],
		events: ['{"error":"boom"}']
	},
	{
		name: 'a final event with no blank line',
		chunks: ['data: a\n\ndata: last'],
		events: ['a', 'last']
	}
];

describe('SseParser', () => {
	for (const c of SSE_CASES) {
		it(`parses ${c.name}`, () => {
			expect(parseChunks(c.chunks)).toEqual(c.events);
		});
	}

	it('gives the same events whatever the read boundaries', () => {
		const text =
			'data: {"a":1}\r\n\r\n: keepalive\r\ndata: x\r\ndata: y\r\n\r\ndata: [DONE]\r\n\r\n';
		const expected = parseChunks([text]);
		for (let cut = 1; cut < text.length; cut++) {
			expect(parseChunks([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
		}
	});
});

describe('normalizeBaseUrl', () => {
	const CASES: [string, string][] = [
		['http://localhost:8000', 'http://localhost:8000/v1'],
		['http://localhost:8000/', 'http://localhost:8000/v1'],
		['http://localhost:8000/v1', 'http://localhost:8000/v1'],
		['http://localhost:8000/v1/', 'http://localhost:8000/v1'],
		['  https://api.example.com/proxy/v1  ', 'https://api.example.com/proxy/v1'],
		['127.0.0.1:11434', 'http://127.0.0.1:11434/v1']
	];
	for (const [input, root] of CASES) {
		it(`turns ${JSON.stringify(input)} into ${root}`, () => {
			expect(normalizeBaseUrl(input)).toBe(root);
		});
	}

	it('refuses what is not an http(s) URL', () => {
		expect(() => normalizeBaseUrl('ftp://host')).toThrow(/not an http/);
		expect(() => normalizeBaseUrl('http://')).toThrow(/not a server URL/);
	});
});

describe('addressSpace', () => {
	const CASES: [string, string][] = [
		['localhost', 'loopback'],
		['127.0.0.1', 'loopback'],
		['[::1]', 'loopback'],
		['10.1.2.3', 'local'],
		['172.20.0.5', 'local'],
		['172.32.0.5', 'public'],
		['192.168.1.20', 'local'],
		['8.8.8.8', 'public'],
		['gpu.example.org', 'public']
	];
	for (const [host, space] of CASES) {
		it(`puts ${host} in the ${space} address space`, () => {
			expect(addressSpace(host)).toBe(space);
		});
	}
});

describe('serverMessage', () => {
	const CASES: [string, string][] = [
		['{"error":{"message":"bad top_p","code":400}}', 'bad top_p'],
		['{"error":"model not found"}', 'model not found'],
		['{"object":"error","message":"vLLM says no"}', 'vLLM says no'],
		['{"detail":[{"msg":"field required"}]}', '[{"msg":"field required"}]'],
		['<html>502 Bad Gateway</html>\n', '<html>502 Bad Gateway</html>']
	];
	for (const [body, message] of CASES) {
		it(`reads ${body.slice(0, 30)}…`, () => {
			expect(serverMessage(body)).toBe(message);
		});
	}
});

describe('finish reasons and JSON modes', () => {
	it('keeps length and calls every other ending a stop', () => {
		expect(['length', 'stop', 'eos', 'tool_calls', null, undefined].map(mapFinish)).toEqual([
			'length',
			'stop',
			'stop',
			'stop',
			'stop',
			'stop'
		]);
	});

	it('steps down only for a 400/422 that is about the response format', () => {
		const refusal = (status: number, msg: string) => new HttpError(status, msg, '');
		expect(fallbackFor('json_schema', refusal(400, 'unknown response_format'))).toBe('json_object');
		expect(fallbackFor('json_object', refusal(422, 'json_object not supported'))).toBe('prompt');
		expect(fallbackFor('prompt', refusal(400, 'response_format'))).toBeUndefined();
		expect(fallbackFor('json_schema', refusal(400, 'max_tokens too large'))).toBeUndefined();
		expect(fallbackFor('json_schema', refusal(500, 'response_format crashed'))).toBeUndefined();
	});

	it('builds each form of the request', () => {
		const schema = { type: 'object' };
		const messages = [{ role: 'user' as const, content: 'hi' }];
		expect(responseFormat('json_object', schema)).toEqual({ type: 'json_object' });
		expect(responseFormat('prompt', schema)).toBeUndefined();
		expect(messagesFor('json_schema', messages, schema)).toBe(messages);
		const prompted = messagesFor('prompt', messages, schema);
		expect(prompted.map((m) => m.role)).toEqual(['system', 'user']);
		expect(prompted[0].content).toContain('{"type":"object"}');
	});
});
