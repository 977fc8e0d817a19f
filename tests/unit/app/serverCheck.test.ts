/**
 * The server check before a run, against a real HTTP server (the OpenAI mock on 127.0.0.1) and a
 * port where nothing listens: each failure is said in its own words.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServer, type ServerCheckDeps } from '../../../src/lib/app/serverCheck.ts';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { TemplateError } from '../../../src/lib/probe/template.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';

/** Node has no CORS: any answer at all counts, as no-cors does in a browser. */
const nodeOpaque = async (url: string) =>
	fetch(url).then(
		() => true,
		() => false
	);

function deps(baseUrl: string, extra: Partial<ServerCheckDeps> = {}): ServerCheckDeps {
	const engine = new OpenAIEngine({ baseUrl });
	return {
		listModels: (signal) => engine.listModels(signal),
		answersOpaque: nodeOpaque,
		template: async () => ({ ...fixtureTemplate(), repo: 'Qwen/Qwen3-0.6B' }),
		...extra
	};
}

async function closedPort(): Promise<number> {
	const s = createServer();
	await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
	const port = (s.address() as AddressInfo).port;
	await new Promise<void>((r) => s.close(() => r()));
	return port;
}

describe('checkServer', () => {
	let mock: MockOpenAI;
	beforeAll(async () => {
		mock = await startMockOpenAI({ models: ['gen', 'judge'] });
	});
	afterAll(async () => mock.close());

	it('passes a served model, a served judge and a template, saying each', async () => {
		const base = `${mock.url}/v1`;
		const check = await checkServer({ baseUrl: base, model: 'gen', judge: 'judge' }, deps(base));
		expect(check.ok).toBe(true);
		expect(check.failure).toBeNull();
		expect(check.served).toEqual(['gen', 'judge']);
		expect(check.lines.map((l) => [l.what, l.ok])).toEqual([
			['server', true],
			['model', true],
			['judge', true],
			['template', true]
		]);
		expect(check.lines[0].text).toBe(`${base} answers and lists 2 models.`);
		expect(check.lines[3].text).toContain('Qwen/Qwen3-0.6B');
	});

	it('names a model that is not served, and lists what is', async () => {
		const base = `${mock.url}/v1`;
		const check = await checkServer(
			{ baseUrl: base, model: 'Qwen/Qwen3-4B', judge: 'gone' },
			deps(base)
		);
		expect(check.ok).toBe(false);
		const bad = check.lines.filter((l) => !l.ok);
		expect(bad.map((l) => l.what)).toEqual(['model', 'judge']);
		expect(bad[0].text).toContain("Model 'Qwen/Qwen3-4B' is not served here (served: gen, judge)");
		expect(bad[1].text).toContain("Judge 'gone' is not served here");
		expect(check.failure).toMatchObject({ name: 'EngineError', code: 'bad_model' });
		expect(check.failure?.message).toBe(`${bad[0].text} ${bad[1].text}`);
	});

	it('an empty model id, a missing template source and a template that fails are each a line', async () => {
		const base = `${mock.url}/v1`;
		const none = await checkServer({ baseUrl: base, model: ' ' }, deps(base, { template: null }));
		expect(none.lines.filter((l) => !l.ok).map((l) => l.what)).toEqual(['model', 'template']);
		expect(none.lines[2].text).toMatch(/No chat template/);
		// The fix in set-up's words, with the templates that need no network (setup/fixes.ts).
		expect(none.lines[2].text).toMatch(
			/Name one with Chat template of the generator \(a Hugging Face repo, a URL or a file\); these ship with the app and need no network: .*Qwen\/Qwen2\.5-0\.5B-Instruct/
		);
		// The start checks the template itself: no template line then.
		const noLine = await checkServer(
			{ baseUrl: base, model: 'gen' },
			deps(base, { template: undefined })
		);
		expect(noLine.lines.map((l) => l.what)).toEqual(['server', 'model']);
		expect(noLine.ok).toBe(true);
		const broken = await checkServer(
			{ baseUrl: base, model: 'gen' },
			deps(base, {
				template: async () => {
					throw new TemplateError('No chat template found. Tried:\n- https://huggingface.co/x', {
						missing: true
					});
				}
			})
		);
		expect(broken.ok).toBe(false);
		// A template is set-up's own line: a start checks it in its own step, not as the server's.
		expect(broken.failure).toBeNull();
		expect(broken.lines.at(-1)?.text).toContain('Chat template: No chat template found');
		expect(broken.lines.at(-1)?.text).toContain('Name one with Chat template of the generator');
	});

	it('a port where nothing listens: "Nothing answered", not CORS', async () => {
		const base = `http://127.0.0.1:${await closedPort()}/v1`;
		const check = await checkServer({ baseUrl: base, model: 'gen' }, deps(base));
		expect(check.ok).toBe(false);
		expect(check.lines).toHaveLength(1);
		expect(check.lines[0].text).toBe(
			`Nothing answered at ${base}: the server is not running, the host or port is wrong, or the network blocks it.`
		);
	});

	it('a server the page cannot read but that answers an opaque request: CORS', async () => {
		const check = await checkServer(
			{ baseUrl: 'http://10.0.0.7:8000/v1/', model: 'gen' },
			{
				listModels: async () => {
					throw new EngineError(
						'network',
						'Could not reach the server at http://10.0.0.7:8000/v1.'
					);
				},
				answersOpaque: async (url) => url === 'http://10.0.0.7:8000/v1/models'
			}
		);
		expect(check.lines[0].text).toMatch(
			/^http:\/\/10\.0\.0\.7:8000\/v1 answered, but the browser blocked this page from reading it \(CORS\)/
		);
		// A start stops with it as a network fault, in the line's words.
		expect(check.failure).toMatchObject({ name: 'EngineError', code: 'network' });
		expect(check.failure?.message).toBe(check.lines[0].text);
	});

	it('a web server that is not an OpenAI API (404 on /models) is told apart from a dead one', async () => {
		const web = createServer((_req, res) => {
			res.writeHead(404, { 'content-type': 'text/html' });
			res.end('<h1>Not Found</h1>');
		});
		await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
		try {
			const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}/v1`;
			const check = await checkServer({ baseUrl: base, model: 'gen' }, deps(base));
			expect(check.lines[0].ok).toBe(false);
			expect(check.lines[0].text).toMatch(/answered, but not with a model list: .*404/);
		} finally {
			await new Promise<void>((r) => web.close(() => r()));
		}
	});

	it('cancelling aborts the check instead of reporting a failure', async () => {
		const ctrl = new AbortController();
		ctrl.abort();
		const base = `${mock.url}/v1`;
		await expect(
			checkServer({ baseUrl: base, model: 'gen', signal: ctrl.signal }, deps(base))
		).rejects.toBeInstanceOf(AbortError);
	});
});
