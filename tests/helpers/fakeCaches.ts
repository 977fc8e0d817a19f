/**
 * An in-memory CacheStorage with the behaviour web-llm relies on: named caches of responses keyed
 * by URL, `add` that fetches and refuses a failed response in Chrome's words, and copies that keep
 * their headers (Date, Content-Length). Node has no CacheStorage; this stands in for the worker's.
 */
export class FakeCache {
	readonly #entries = new Map<string, { body: Uint8Array; headers: Headers }>();
	readonly #fetch: (url: string) => Promise<Response>;

	constructor(fetchFn: (url: string) => Promise<Response>) {
		this.#fetch = fetchFn;
	}

	async keys(): Promise<{ url: string }[]> {
		return [...this.#entries.keys()].map((url) => ({ url }));
	}

	async match(url: string): Promise<Response | undefined> {
		const entry = this.#entries.get(new URL(url).href);
		return entry && new Response(entry.body.slice(), { headers: entry.headers });
	}

	async put(url: string, response: Response): Promise<void> {
		const body = new Uint8Array(await response.arrayBuffer());
		this.#entries.set(new URL(url).href, { body, headers: new Headers(response.headers) });
	}

	/** Like Cache.add: fetch, and keep only an ok response. */
	async add(url: string): Promise<void> {
		const res = await this.#fetch(url);
		if (!res.ok) throw new TypeError("Failed to execute 'add' on 'Cache': Request failed");
		await this.put(url, res);
	}

	async delete(url: string): Promise<boolean> {
		return this.#entries.delete(new URL(url).href);
	}

	/** Test access: a copy's bytes, or undefined. */
	bytes(url: string): Uint8Array | undefined {
		return this.#entries.get(new URL(url).href)?.body;
	}

	/** Test access: replace a copy's bytes in place, as a damaged disk or an old bug would. */
	overwrite(url: string, body: Uint8Array): void {
		const entry = this.#entries.get(new URL(url).href);
		if (!entry) throw new Error(`${url} is not cached`);
		entry.body = body;
	}
}

export class FakeCacheStorage {
	readonly #caches = new Map<string, FakeCache>();
	/** Every URL fetched through `add`, in order. */
	readonly fetched: string[] = [];
	readonly #serve: (url: string) => Promise<Response>;

	/** @param serve the network: what a URL answers */
	constructor(serve: (url: string) => Promise<Response>) {
		this.#serve = serve;
	}

	async has(name: string): Promise<boolean> {
		return this.#caches.has(name);
	}

	async open(name: string): Promise<FakeCache> {
		let cache = this.#caches.get(name);
		if (!cache) {
			cache = new FakeCache((url) => (this.fetched.push(url), this.#serve(url)));
			this.#caches.set(name, cache);
		}
		return cache;
	}

	/** Test access: every cached URL of a cache ([] when it does not exist). */
	async urls(name: string): Promise<string[]> {
		return (await this.#caches.get(name)?.keys())?.map((k) => k.url) ?? [];
	}
}
