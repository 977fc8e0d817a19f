/** Opening a shared run by link, against a real HTTP server on 127.0.0.1 and Node's own fetch. */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRun, fetchShared, OpenRunError, runLink } from '../../../src/lib/app/openRun.ts';
import { studyToFile } from '../../../src/lib/probe/studyFile.ts';
import { bundleToFiles, ExchangeError } from '../../../src/lib/probe/exchange.ts';
import { bundleToRunFile } from '../../../src/lib/probe/runFile.ts';
import { makeBundle } from '../../helpers/factories.ts';
import { listenLocal, type LocalServer } from '../../helpers/httpServer.ts';
import { rejection } from '../../helpers/rejection.ts';

const bundle = makeBundle(4, 'run-shared');
const other = makeBundle(3, 'run-other');
const files = bundleToFiles(bundle);
const badLines = bundleToRunFile(bundle).split('\n');
badLines[2] = badLines[2].replace(/"temperature":[^,]+/, '"temperature":"hot"');

const ROUTES: Record<string, [number, string]> = {
	'/runs/shared.run.jsonl': [200, bundleToRunFile(bundle)],
	'/runs/bad.run.jsonl': [200, badLines.join('\n')],
	'/cli/out.jsonl': [200, files.jsonl],
	'/cli/out.manifest.json': [200, files.manifest],
	'/lonely/out.jsonl': [200, files.jsonl],
	'/page.html': [200, '<!doctype html><title>Hello</title>'],
	'/broken.run.jsonl': [500, 'Internal Server Error'],
	'/runs/bad%zz-name.run.jsonl': [200, bundleToRunFile(bundle)],
	'/runs/corrupt.run.jsonl': [
		200,
		'{"format": "utp-run-v1", oops\n' + badLines.slice(1).join('\n')
	],
	'/runs/other.run.jsonl': [200, bundleToRunFile(other)],
	'/studies/list.study.json': [
		200,
		JSON.stringify({
			format: 'user-turn-probe-study',
			version: 1,
			runs: ['../runs/shared.run.jsonl', `${'/runs/other.run.jsonl'}`]
		})
	],
	'/studies/one.study.jsonl': [200, studyToFile([bundleToRunFile(bundle), bundleToRunFile(other)])],
	'/studies/gone.study.json': [
		200,
		JSON.stringify({ format: 'user-turn-probe-study', version: 1, runs: ['missing.run.jsonl'] })
	]
};

/** Hosts that misbehave: answer never, stall after the headers, or declare 700 MB. */
const MISBEHAVING: Record<string, (res: ServerResponse) => void> = {
	'/hang.run.jsonl': () => {},
	'/stall.run.jsonl': (res) => {
		res.writeHead(200, { 'content-type': 'text/plain' });
		res.write('{"format"');
	},
	'/huge.run.jsonl': (res) => {
		res.writeHead(200, { 'content-length': String(700 * 1024 * 1024) });
		res.write('{');
	}
};

let server: LocalServer;
let base = '';
let requests: string[] = [];

beforeAll(async () => {
	server = await listenLocal((req, res) => {
		requests.push(req.url ?? '');
		const misbehave = MISBEHAVING[req.url ?? ''];
		if (misbehave) return misbehave(res);
		const [status, body] = ROUTES[req.url ?? ''] ?? [404, 'Not Found'];
		res.writeHead(status, { 'content-type': 'text/plain' });
		res.end(body);
	});
	base = server.base;
});
afterAll(() => server.close());

const open = (path: string) => fetchRun(`${base}${path}`, fetch);

describe('fetchRun', () => {
	it('opens a whole-run file', async () => {
		const b = await open('/runs/shared.run.jsonl');
		expect(b.manifest.run_id).toBe('run-shared');
		expect(b.records).toHaveLength(4);
	});

	it('opens a records file by finding its manifest beside it, and the other way round', async () => {
		requests = [];
		const a = await open('/cli/out.jsonl');
		expect(requests).toEqual(['/cli/out.jsonl', '/cli/out.manifest.json']);
		const b = await open('/cli/out.manifest.json');
		expect(a).toEqual(b);
		expect(a.records).toHaveLength(4);
	});

	it('refuses an invalid run with every problem located in the named file', async () => {
		const e = await rejection(open('/runs/bad.run.jsonl'));
		expect(e).toBeInstanceOf(ExchangeError);
		expect((e as ExchangeError).problems[0]).toMatch(/^bad\.run\.jsonl, line 3: .*temperature/);
	});

	it('says what is missing when a records file has no manifest beside it', async () => {
		const e = await rejection(open('/lonely/out.jsonl'));
		expect(e).toBeInstanceOf(OpenRunError);
		expect(e.message).toMatch(/out\.manifest\.json beside it could not be read .*404/);
	});

	it('names the status of a failing host and refuses what is not a run', async () => {
		expect((await rejection(open('/broken.run.jsonl'))).message).toMatch(/answered 500/);
		expect((await rejection(open('/gone.run.jsonl'))).message).toMatch(/answered 404/);
		expect((await rejection(open('/page.html'))).message).toMatch(/page\.html is not a run/);
	});

	it('says an unreachable host cannot be reached, naming it', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const e = await rejection(fetchRun(`http://127.0.0.1:${port}/x.run.jsonl`, fetch));
		expect(e).toBeInstanceOf(OpenRunError);
		expect(e.message).toMatch(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port}`));
	});
});

describe('fetchRun against a host that misbehaves', () => {
	it('ends a host that never answers, or stalls after its headers, at the time limit', async () => {
		for (const path of ['/hang.run.jsonl', '/stall.run.jsonl']) {
			const t0 = Date.now();
			const e = await rejection(fetchRun(`${base}${path}`, fetch, undefined, 300));
			expect(e, path).toBeInstanceOf(OpenRunError);
			expect(e.message).toContain(`127.0.0.1:${base.split(':').pop()} did not send`);
			expect(e.message).toContain('within 0.3 s');
			expect(Date.now() - t0).toBeLessThan(2_000);
		}
	});

	it('is cancelled by its signal, as a Cancel button does', async () => {
		const ctl = new AbortController();
		const pending = rejection(fetchRun(`${base}/hang.run.jsonl`, fetch, ctl.signal));
		setTimeout(() => ctl.abort(), 50);
		const e = await pending;
		expect(e).not.toBeInstanceOf(OpenRunError);
		expect(e.name).toBe('AbortError');
	});

	it('says the size limit for a file too large to open by link', async () => {
		const e = await rejection(open('/huge.run.jsonl'));
		expect(e).toBeInstanceOf(OpenRunError);
		expect(e.message).toContain('huge.run.jsonl is 700 MB or more');
		expect(e.message).toContain('at most 256 MB');
	});

	it('opens a link whose path has a bad %-sequence, naming the file as written', async () => {
		const got = await open('/runs/bad%zz-name.run.jsonl');
		expect(got.manifest.run_id).toBe('run-shared');
	});

	it('says what is wrong with a run file whose first line is corrupt', async () => {
		const e = await rejection(open('/runs/corrupt.run.jsonl'));
		expect(e).toBeInstanceOf(ExchangeError);
		expect((e as ExchangeError).problems[0]).toMatch(
			/^corrupt\.run\.jsonl, line 1: not valid JSON/
		);
	});
});

describe('runLink', () => {
	it('takes https anywhere and http only on this machine', () => {
		expect(runLink(' https://example.org/a.run.jsonl ').host).toBe('example.org');
		expect(runLink('http://localhost:8000/a.run.jsonl').port).toBe('8000');
		expect(() => runLink('http://example.org/a.run.jsonl')).toThrow(/Only https/);
		expect(() => runLink('file:///home/a.run.jsonl')).toThrow(/Only https/);
		expect(() => runLink('run.jsonl')).toThrow(/not a web address/);
	});

	it('refuses javascript: without talking about plain http', () => {
		expect(() => runLink('javascript:alert(1)')).toThrow(
			'Only https:// links open here; "javascript:" is not a web address a shared run can be fetched from.'
		);
	});
});

describe('a study by link', () => {
	it('opens a list of run files, each from its address relative to the list', async () => {
		const shared = await fetchShared(`${base}/studies/list.study.json`, fetch);
		if (shared.kind !== 'study') throw new Error('expected a study');
		expect(shared.bundles.map((b) => b.manifest.run_id)).toEqual(['run-shared', 'run-other']);
		expect(shared.bundles[1].records).toEqual(other.records);
	});

	it('opens one file holding every run', async () => {
		const shared = await fetchShared(`${base}/studies/one.study.jsonl`, fetch);
		if (shared.kind !== 'study') throw new Error('expected a study');
		expect(shared.bundles.map((b) => b.manifest.run_id)).toEqual(['run-shared', 'run-other']);
	});

	it('opens a run link as a run, and names a listed run that is not there', async () => {
		const run = await fetchShared(`${base}/runs/shared.run.jsonl`, fetch);
		expect(run.kind).toBe('run');
		const e = await rejection(fetchShared(`${base}/studies/gone.study.json`, fetch));
		expect(e).toBeInstanceOf(OpenRunError);
		expect(e.message).toMatch(/answered 404 .*missing\.run\.jsonl/);
	});
});
