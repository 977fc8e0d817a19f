/**
 * WebKitGTK (the engine behind Safari) driven over classic WebDriver: Debian's WebKitWebDriver
 * (webkit2gtk-driver) starts its MiniBrowser, WebdriverIO talks to it. MiniBrowser has no headless
 * mode, so it draws into its own Xvfb display. Every request goes to the blocking proxy, which
 * passes those for 127.0.0.1 through. Nothing is downloaded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { remote } from 'webdriverio';
import { Driver, UI_TIMEOUT_MS } from './driver.ts';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';

type Session = Awaited<ReturnType<typeof remote>>;

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const s = createServer();
		s.once('error', reject);
		s.listen(0, '127.0.0.1', () => {
			const port = (s.address() as { port: number }).port;
			s.close(() => resolve(port));
		});
	});
}

/** Start Xvfb on a display it picks itself (-displayfd) and return it as ":N". */
function startXvfb(): Promise<{ display: string; proc: ChildProcess }> {
	return new Promise((resolve, reject) => {
		const proc = spawn(
			XVFB,
			['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
			{
				stdio: ['ignore', 'ignore', 'pipe', 'pipe']
			}
		);
		let err = '';
		proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
		proc.once('error', reject);
		proc.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${err.trim()}`)));
		(proc.stdio[3] as NodeJS.ReadableStream).once('data', (d: Buffer) =>
			resolve({ display: `:${d.toString().trim()}`, proc })
		);
	});
}

/** Start WebKitWebDriver on `port` and wait until it answers /status. */
async function startDriver(port: number, display: string): Promise<ChildProcess> {
	const proc = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
		stdio: 'ignore',
		env: { ...process.env, DISPLAY: display }
	});
	const end = Date.now() + 10_000;
	while (Date.now() < end) {
		if (proc.exitCode !== null) throw new Error(`WebKitWebDriver exited (${proc.exitCode})`);
		const ok = await fetch(`http://127.0.0.1:${port}/status`).then(
			(r) => r.ok,
			() => false
		);
		if (ok) return proc;
		await new Promise((r) => setTimeout(r, 100));
	}
	proc.kill();
	throw new Error(`WebKitWebDriver did not answer on port ${port} within 10 s`);
}

export class WebKitDriver extends Driver {
	readonly name = 'webkit';

	private constructor(
		private readonly session: Session,
		readonly version: string,
		private readonly procs: ChildProcess[]
	) {
		super();
	}

	static async launch(opts: { proxyHostPort: string }): Promise<WebKitDriver> {
		for (const [path, pkg] of [
			[WEBKIT_DRIVER, 'webkit2gtk-driver'],
			[XVFB, 'xvfb']
		]) {
			if (!existsSync(path)) throw new Error(`No ${path}: apt-get install -y ${pkg}.`);
		}
		const procs: ChildProcess[] = [];
		try {
			const xvfb = await startXvfb();
			procs.push(xvfb.proc);
			const port = await freePort();
			procs.push(await startDriver(port, xvfb.display));
			const capabilities = {
				browserName: 'MiniBrowser',
				// WebKitWebDriver speaks classic WebDriver only; without this WebdriverIO asks for
				// BiDi (webSocketUrl) and the session is refused ("Failed to match capabilities").
				'wdio:enforceWebDriverClassic': true,
				// No noProxy: any entry there crashes MiniBrowser at start now and then, while the
				// session request waits (blockingProxy.ts has the counts). The proxy passes requests
				// for 127.0.0.1 through instead.
				proxy: {
					proxyType: 'manual' as const,
					httpProxy: opts.proxyHostPort,
					sslProxy: opts.proxyHostPort
				},
				'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] }
			};
			const session = await remote({
				hostname: '127.0.0.1',
				port,
				logLevel: 'warn',
				connectionRetryCount: 0,
				connectionRetryTimeout: 30_000,
				// WebKitGTK's own key is not in WebdriverIO's types.
				capabilities: capabilities as WebdriverIO.Capabilities
			});
			await session.setTimeout({ script: 120_000, pageLoad: 60_000 });
			await session.setWindowSize(1280, 900);
			const caps = session.capabilities as { browserVersion?: string };
			return new WebKitDriver(session, `WebKitGTK ${caps.browserVersion ?? '?'}`, procs);
		} catch (err) {
			for (const p of procs.reverse()) p.kill();
			throw err;
		}
	}

	protected evaluateText<R>(expression: string): Promise<R> {
		// Execute Script awaits a returned promise (WebDriver spec, "execute a function body").
		return this.session.execute(`return ${expression};`) as Promise<R>;
	}

	async goto(url: string): Promise<void> {
		await this.session.url(url);
	}

	async reload(): Promise<void> {
		await this.session.refresh();
	}

	protected async clickSelector(selector: string): Promise<void> {
		const el = await this.session.$(selector);
		await el.waitForClickable({ timeout: UI_TIMEOUT_MS });
		await el.click();
	}

	protected async fillSelector(selector: string, value: string): Promise<void> {
		const el = await this.session.$(selector);
		// WebKitWebDriver refuses to send an empty text ("Missing text parameter"): clear, then type.
		await el.clearValue();
		if (value) await el.addValue(value);
	}

	protected async selectSelector(selector: string, value: string): Promise<void> {
		const el = await this.session.$(selector);
		await el.selectByAttribute('value', value);
	}

	async close(): Promise<void> {
		try {
			await this.session.deleteSession();
		} finally {
			for (const p of this.procs.reverse()) p.kill();
		}
	}
}
