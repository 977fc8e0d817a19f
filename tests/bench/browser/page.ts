/**
 * What the bench reads inside the page. Each function runs in the browser through page.evaluate,
 * so it is self-contained (no imports, no outer variables); e2e's guard() gives the page the
 * `__name` helper tsx's compiled callbacks expect.
 */
import type { Page } from 'playwright-core';

/** The text of the route-table stubs: a view that shows it has not been built yet. */
export const PLACEHOLDER_TEXT = 'This view is not built yet';

/** Installed before any page script: records every long task (≥ 50 ms) from the very start. */
export const LONG_TASK_OBSERVER = `(() => {
	const tasks = [];
	window.__benchLongTasks = tasks;
	try {
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
		}).observe({ type: 'longtask', buffered: true });
		window.__benchLongTaskSupported = true;
	} catch {
		window.__benchLongTaskSupported = false;
	}
})();`;

export interface LongTask {
	start: number;
	duration: number;
}

export async function pageNow(page: Page): Promise<number> {
	return page.evaluate(() => performance.now());
}

/** Long tasks that started in [from, to) of the page's clock; null if the API is missing. */
export async function longTasksBetween(
	page: Page,
	from: number,
	to: number
): Promise<LongTask[] | null> {
	return page.evaluate(
		({ from, to }) => {
			const w = window as unknown as {
				__benchLongTasks?: { start: number; duration: number }[];
				__benchLongTaskSupported?: boolean;
			};
			if (!w.__benchLongTaskSupported || !w.__benchLongTasks) return null;
			return w.__benchLongTasks.filter((t) => t.start >= from && t.start < to);
		},
		{ from, to }
	);
}

export async function showsPlaceholder(page: Page): Promise<boolean> {
	const text = await page
		.locator('main')
		.innerText({ timeout: 5_000 })
		.catch(() => '');
	return text.includes(PLACEHOLDER_TEXT);
}

export interface RunProgress {
	status: string | null;
	/** Absent when only the status was asked for. */
	records?: number;
	labelled?: number;
}

/**
 * A run's stored progress from IndexedDB counts alone: cheap enough to poll during a measured run
 * without adding main-thread work (reading the records themselves would deserialize them all).
 */
export async function runProgress(page: Page, runId: string): Promise<RunProgress | null> {
	return page.evaluate(progressInPage, { runId, counts: true });
}

/**
 * runProgress's body, run in the page (self-contained; `Unwatched.evaluate` sends its source).
 * `counts: false` reads the status alone, from the `runs` store: for polling while a run is timed.
 * The run writes that store only at its start and end, so such a read never queues behind, or
 * holds up, the run's record commits. The counts read `records`, and a read there waits for the
 * commit under way and makes the next one wait for it: polled every 100 ms through the bench's
 * server run, 57 such reads spent 2.1 s queued among 323 record commits. (The run's wall time did
 * not move with it, 8.5–9.4 s against 8.9–9.2 s in four pairs; Chromium's browser process spent
 * 0.1–0.2 s less. The bench's reading should not depend on its own reads anyway.)
 */
export async function progressInPage({
	runId,
	counts
}: {
	runId: string;
	counts: boolean;
}): Promise<RunProgress | null> {
	const db = await new Promise<IDBDatabase | null>((resolve) => {
		const req = indexedDB.open('user-turn-probe');
		req.onsuccess = () => resolve(req.result);
		req.onerror = () => resolve(null);
		// No database yet: do not create one under the app.
		req.onupgradeneeded = () => req.transaction?.abort();
	});
	if (!db) return null;
	const done = <T>(r: IDBRequest<T>) =>
		new Promise<T>((resolve, reject) => {
			r.onsuccess = () => resolve(r.result);
			r.onerror = () => reject(r.error);
		});
	try {
		if (!db.objectStoreNames.contains('records')) return null;
		const tx = db.transaction(counts ? ['runs', 'records'] : ['runs'], 'readonly');
		const run = (await done(tx.objectStore('runs').get(runId))) as { status?: string } | undefined;
		const status = run?.status ?? null;
		if (!counts) return { status };
		const records = tx.objectStore('records');
		return {
			status,
			// The run is the primary key's prefix: [runId] sorts before every [runId, key], [runId, []] after.
			records: await done(records.count(IDBKeyRange.bound([runId], [runId, []]))),
			// Unlabelled records have a null label, which IndexedDB leaves out of the index.
			labelled: await done(
				records.index('[run_id+label]').count(IDBKeyRange.bound([runId, ''], [runId, '\uffff']))
			)
		};
	} finally {
		db.close();
	}
}

export interface RenderTiming {
	ok: boolean;
	/** From the hash change to the first frame painted with every chart drawn and a row shown. */
	ms: number;
	placeholder: boolean;
	rows: number;
	chartsDrawn: string[];
}

/**
 * Opens `hash` in the already-loaded app and times, on the page's own clock, until every chart in
 * `charts` (data-testids) has ink on its canvas and at least one sample row exists, then until
 * that frame is painted (a message posted from the frame's rAF runs after its paint).
 */
export async function timeRender(
	page: Page,
	hash: string,
	charts: string[],
	timeoutMs: number
): Promise<RenderTiming> {
	return page.evaluate(
		({ hash, charts, timeoutMs, placeholderText }) =>
			new Promise<RenderTiming>((resolve) => {
				const inked = (c: HTMLCanvasElement) => {
					if (c.width === 0 || c.height === 0) return false;
					const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
					if (!data) return false;
					for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
					return false;
				};
				// A chart found inked stays counted: its pixels are not read again on every frame (the
				// bench's own reads would add to the main thread's time it measures).
				const seen = new Set<string>();
				const drawn = (id: string) => {
					if (seen.has(id)) return true;
					const el = document.querySelector(`[data-testid="${id}"]`);
					const canvas = el instanceof HTMLCanvasElement ? el : el?.querySelector('canvas');
					if (!(canvas instanceof HTMLCanvasElement && inked(canvas))) return false;
					seen.add(id);
					return true;
				};
				const t0 = performance.now();
				location.hash = hash;
				const frame = () => {
					const rows = document.querySelectorAll('[data-testid="sample-row"]').length;
					const chartsDrawn = charts.filter(drawn);
					const base = { rows, chartsDrawn };
					if (rows > 0 && chartsDrawn.length === charts.length) {
						const channel = new MessageChannel();
						channel.port1.onmessage = () =>
							resolve({ ok: true, ms: performance.now() - t0, placeholder: false, ...base });
						channel.port2.postMessage(0);
						return;
					}
					const main = document.querySelector('main')?.textContent ?? '';
					const elapsed = performance.now() - t0;
					if (main.includes(placeholderText) || elapsed > timeoutMs) {
						resolve({
							ok: false,
							ms: elapsed,
							placeholder: main.includes(placeholderText),
							...base
						});
						return;
					}
					requestAnimationFrame(frame);
				};
				requestAnimationFrame(frame);
			}),
		{ hash, charts, timeoutMs, placeholderText: PLACEHOLDER_TEXT }
	);
}
