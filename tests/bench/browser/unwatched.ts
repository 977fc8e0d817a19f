/**
 * A Chromium the bench lets go of before it measures. Playwright, once attached to a page, is told
 * of every request and response the page makes (it enables the DevTools network domain), and the
 * tab pays for that: about 3 ms a request on this machine, spent by no user's browser. So the page
 * is set up with playwright, playwright disconnects, and during the measured run the bench only
 * evaluates expressions over Chromium's own DevTools pipe (no domain enabled, so no events sent).
 *
 * Like launchLoopbackBrowser's, its requests stay on 127.0.0.1 by a resolver rule, not routing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, chromiumArgs, LOOPBACK_ONLY_ARG, NAME_SHIM } from '../../e2e/browser.ts';

const START_TIMEOUT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 10_000;

export interface Unwatched {
	/** Drive the page with playwright; it disconnects when `drive` returns (the page stays open). */
	setUp(drive: (page: Page) => Promise<void>): Promise<void>;
	/** Calls `fn(arg)` in the page (self-contained, as for page.evaluate) and returns its value. */
	evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
	close(): Promise<void>;
}

interface Reply {
	id: number;
	result?: {
		result?: { value?: unknown };
		exceptionDetails?: { text?: string; exception?: { description?: string } };
		sessionId?: string;
		targetInfos?: { targetId: string; type: string; attached: boolean }[];
	};
	error?: { message: string };
}

export async function launchUnwatched(): Promise<Unwatched> {
	const dir = mkdtempSync(join(tmpdir(), 'utp-bench-unwatched-'));
	const proc = spawn(
		CHROMIUM,
		[
			...chromiumArgs(),
			LOOPBACK_ONLY_ARG,
			'--remote-debugging-port=0',
			'--remote-debugging-pipe',
			`--user-data-dir=${dir}`,
			'--window-size=1280,900',
			'about:blank'
		],
		// Chromium reads commands on fd 3 and writes replies on fd 4, each ended by a NUL.
		{ stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] }
	);
	const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
	const pipe = new CdpPipe(proc.stdio[3] as Writable, proc.stdio[4] as Readable);
	const close = async () => {
		if (proc.exitCode === null && proc.signalCode === null) {
			// Browser.close shuts its helper processes down too; a killed browser leaves them
			// writing to the profile while it is removed. Killed only if it does not exit.
			pipe.post('Browser.close');
			const timer = setTimeout(() => proc.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
			await exited;
			clearTimeout(timer);
		}
		rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
	};
	try {
		const endpoint = await devToolsEndpoint(proc);
		let sessionId: string | undefined;
		return {
			async setUp(drive) {
				const browser = await chromium.connectOverCDP(endpoint);
				try {
					const context = browser.contexts()[0];
					await context.addInitScript({ content: NAME_SHIM });
					const page = context.pages()[0] ?? (await context.newPage());
					await page.evaluate(NAME_SHIM);
					await drive(page);
				} finally {
					await browser.close();
				}
			},
			async evaluate(fn, arg) {
				sessionId ??= await pipe.attachToPage();
				const expression = `${NAME_SHIM} (${fn.toString()})(${JSON.stringify(arg)})`;
				const reply = await pipe.send(
					'Runtime.evaluate',
					{ expression, awaitPromise: true, returnByValue: true },
					sessionId
				);
				const thrown = reply.exceptionDetails;
				if (thrown) throw new Error(thrown.exception?.description ?? thrown.text ?? 'threw');
				return reply.result?.value as Awaited<ReturnType<typeof fn>>;
			},
			close
		};
	} catch (err) {
		await close();
		throw err;
	}
}

/** The browser's DevTools address, printed on stderr at start (for playwright's connectOverCDP). */
function devToolsEndpoint(proc: ChildProcess): Promise<string> {
	return new Promise((resolve, reject) => {
		let text = '';
		const timer = setTimeout(
			() => reject(new Error(`Chromium did not start: ${text}`)),
			START_TIMEOUT_MS
		);
		proc.stderr?.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			const m = /DevTools listening on (ws:\/\/\S+)/.exec(text);
			if (!m) return;
			clearTimeout(timer);
			resolve(m[1]);
		});
		proc.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`Chromium exited (${code}) before it listened: ${text}`));
		});
	});
}

/** Chromium's DevTools protocol over its pipe: NUL-ended JSON, replies matched by id. */
class CdpPipe {
	#next = 0;
	#buffered = '';
	readonly #waiting = new Map<number, (r: Reply) => void>();
	readonly #out: Writable;

	/** Set once Chromium's end of the pipe closes: every reply still awaited fails with it. */
	#closed: Error | undefined;

	constructor(out: Writable, input: Readable) {
		this.#out = out;
		// Decoded as a stream: a character split across two chunks is not mangled.
		input.setEncoding('utf8');
		input.on('data', (chunk: string) => {
			this.#buffered += chunk;
			let end: number;
			while ((end = this.#buffered.indexOf('\0')) >= 0) {
				const reply = JSON.parse(this.#buffered.slice(0, end)) as Reply;
				this.#buffered = this.#buffered.slice(end + 1);
				this.#waiting.get(reply.id)?.(reply);
				this.#waiting.delete(reply.id);
			}
		});
		// A browser that crashed or was closed answers nothing more: fail, do not hang the bench.
		input.on('close', () => {
			this.#closed = new Error('Chromium closed its DevTools pipe (it exited)');
			for (const settle of this.#waiting.values()) settle({ id: 0, error: this.#closed });
			this.#waiting.clear();
		});
	}

	/** A command whose reply nobody waits for (Browser.close: the pipe closes before it). */
	post(method: string): void {
		this.#out.write(JSON.stringify({ id: ++this.#next, method }) + '\0');
	}

	async send(
		method: string,
		params: Record<string, unknown>,
		sessionId?: string
	): Promise<NonNullable<Reply['result']>> {
		if (this.#closed) throw new Error(`${method}: ${this.#closed.message}`);
		const id = ++this.#next;
		const reply = await new Promise<Reply>((resolve) => {
			this.#waiting.set(id, resolve);
			this.#out.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
		});
		if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
		return reply.result ?? {};
	}

	/** A session on the browser's one page; only Runtime.evaluate is ever sent on it. */
	async attachToPage(): Promise<string> {
		const { targetInfos = [] } = await this.send('Target.getTargets', {});
		const page = targetInfos.find((t) => t.type === 'page');
		if (!page) throw new Error('Chromium has no page to evaluate in');
		// What this file is for: nobody else (playwright) may still be attached to the page.
		if (page.attached) throw new Error('a DevTools client is still attached to the page');
		const { sessionId } = await this.send('Target.attachToTarget', {
			targetId: page.targetId,
			flatten: true
		});
		if (!sessionId) throw new Error('Chromium gave no session for its page');
		return sessionId;
	}
}
