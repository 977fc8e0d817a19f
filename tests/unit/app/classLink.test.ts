/** A teacher's class link, against a real HTTP server on 127.0.0.1 and Node's own fetch. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassLinkError, fetchClassExamples } from '../../../src/lib/app/classLink.ts';
import { exampleLink } from '../../../src/lib/app/examples.ts';
import { OpenRunError } from '../../../src/lib/app/openRun.ts';
import { parseHash } from '../../../src/lib/routing/routes.ts';
import { listenLocal, type LocalServer } from '../../helpers/httpServer.ts';
import { rejection } from '../../helpers/rejection.ts';

const entry = (file: string) => ({
	file,
	title: `Run ${file}`,
	model: 'Qwen3-0.6B-q4f16_1-MLC',
	device: 'Apple M2, Chrome 131 (WebGPU)',
	date: '2026-11-20'
});

const ROUTES: Record<string, [number, string]> = {
	'/class/index.json': [
		200,
		JSON.stringify({
			examples: [
				entry('a.run.jsonl'),
				entry('https://runs.example.org/b.run.jsonl'),
				{ ...entry('c.run.jsonl'), date: 'last week' },
				entry('notes.txt')
			]
		})
	],
	'/class/twice.json': [
		200,
		JSON.stringify({
			examples: [
				entry('a.run.jsonl'),
				entry('b.run.jsonl'),
				{ ...entry('a.run.jsonl'), title: 'Again' }
			]
		})
	],
	'/class/bad.json': [200, '{"examples": [ oops'],
	'/class/empty.json': [200, '{"examples": []}'],
	'/class/other.json': [200, '{"runs": []}']
};

let server: LocalServer;
let base = '';
beforeAll(async () => {
	server = await listenLocal((req, res) => {
		if (req.url === '/class/hang.json') return;
		const [status, body] = ROUTES[req.url ?? ''] ?? [404, 'Not Found'];
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(body);
	});
	base = server.base;
});
afterAll(() => server.close());

describe('a class link', () => {
	it('reads the list from the hash, its own "?" and "&" kept', () => {
		const url = 'https://teacher.example.org/class/index.json?v=2&x=1';
		const route = parseHash(`#/?examples=${url}`);
		expect(route.view).toBe('home');
		expect(route.params.examples).toBe(url);
		expect(parseHash(`#/?examples=${encodeURIComponent(url)}`).params.examples).toBe(url);
	});

	it('lists the hosted runs, files named relative to the list or by full link', async () => {
		const r = await fetchClassExamples(`${base}/class/index.json`, fetch);
		expect(r.examples.map((e) => e.url)).toEqual([
			`${base}/class/a.run.jsonl`,
			'https://runs.example.org/b.run.jsonl'
		]);
		expect(exampleLink(r.examples[0], 'https://app.example.org/')).toBe(
			`#/open?url=${encodeURIComponent(`${base}/class/a.run.jsonl`)}`
		);
		expect(r.problems).toEqual([
			`${base}/class/index.json, example 3: date "last week" is not YYYY-MM-DD`,
			`${base}/class/index.json, example 4: notes.txt is not a run file (.run.jsonl)`
		]);
	});

	it('lists a file named twice once, and says which entry was left out', async () => {
		// Before: both were listed, and the list (keyed by file) threw Svelte's duplicate-key error.
		const r = await fetchClassExamples(`${base}/class/twice.json`, fetch);
		expect(r.examples.map((e) => [e.file, e.title])).toEqual([
			['a.run.jsonl', 'Run a.run.jsonl'],
			['b.run.jsonl', 'Run b.run.jsonl']
		]);
		expect(r.problems).toEqual([
			`${base}/class/twice.json, example 3: a.run.jsonl is listed already (example 1); left out`
		]);
	});

	it('says the host answered 404', async () => {
		const e = await rejection(fetchClassExamples(`${base}/class/gone.json`, fetch));
		expect(e).toBeInstanceOf(OpenRunError);
		expect(e.message).toMatch(/answered 404 .*\/class\/gone\.json/);
	});

	it('says the list is not JSON, and what it should look like', async () => {
		const e = await rejection(fetchClassExamples(`${base}/class/bad.json`, fetch));
		expect(e).toBeInstanceOf(ClassLinkError);
		expect(e.message).toMatch(/is not JSON.*"examples"/);
	});

	it('says a list with no run to open is empty, and why', async () => {
		const empty = await rejection(fetchClassExamples(`${base}/class/empty.json`, fetch));
		expect(empty.message).toBe("The class link's list names no run that can be opened.");
		const other = await rejection(fetchClassExamples(`${base}/class/other.json`, fetch));
		expect(other.message).toMatch(/no run that can be opened\. .*no "examples" array/);
	});

	it('says a host that blocks other sites (CORS) or cannot be reached may be the cause', async () => {
		const blocked = async () => {
			throw new TypeError('Failed to fetch');
		};
		const e = await rejection(
			fetchClassExamples('https://teacher.example.org/index.json', blocked)
		);
		expect(e.message).toMatch(/Could not reach teacher\.example\.org.*CORS.*Failed to fetch/);
	});

	it('gives up on a host that never answers, and says so', async () => {
		const e = await rejection(fetchClassExamples(`${base}/class/hang.json`, fetch, undefined, 300));
		expect(e.message).toMatch(/did not send hang\.json within 0\.3 s/);
	});

	it('refuses plain http off this machine before fetching', async () => {
		const e = await rejection(
			fetchClassExamples('http://teacher.example.org/index.json', () => {
				throw new Error('fetched');
			})
		);
		expect(e.message).toMatch(/Only https:\/\/ links open here/);
	});
});
