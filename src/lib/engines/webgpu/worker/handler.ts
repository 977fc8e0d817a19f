/**
 * The web-llm worker's operations: load, unload, generate and query the cache on web-llm's
 * MLCEngines (one per resident model, pool.ts). The shared host (worker/host.ts) serves them one
 * at a time and answers every request exactly once. Knows web-llm only through WebLLMSurface, so
 * it runs in Node tests against a fake.
 */
import type {
	AppConfig,
	ModelRecord,
	ChatCompletionChunk,
	ChatCompletionMessageParam,
	ChatCompletionRequestStreaming,
	ChatOptions,
	Completion,
	CompletionCreateParamsStreaming,
	InitProgressCallback
} from '@mlc-ai/web-llm';
import { EngineError } from '../../../probe/engine.ts';
import { createProgressFolder } from '../progress.ts';
import type { CacheQueryMessage, LoadMessage, WorkerRequest, WorkerStats } from '../protocol.ts';
import type {
	CacheQueryResult,
	CacheSizes,
	Post,
	WireCompletionRequest,
	WireJsonChatRequest
} from '../../worker/protocol.ts';
import { createWorkerHost, type Job } from '../../worker/host.ts';
import { completionFields, samplingFields, STREAMED } from '../../requestFields.ts';
import { mergeAppConfig, mirroredRecord } from '../custom.ts';
import { normalizeMirrorBase, type MirrorSource } from '../../mirror.ts';
import { usesCacheApi } from './cacheSizes.ts';
import { diagnoseCustomLoad, type DiagnoseFetch } from './diagnose.ts';
import { pruneMirrorStamps, verifyMirrorCopies, type MirrorCaches } from './mirrorCheck.ts';
import { EnginePool, type EngineFactory } from './pool.ts';
import { collect, type StreamControl } from './stream.ts';

/** The narrow slice of MLCEngine we use; MLCEngine itself satisfies it. */
export interface WebLLMSurface {
	reload(models: string[], chatOpts?: ChatOptions[]): Promise<void>;
	/** Also cancels a reload in flight (web-llm aborts its downloads and reload returns). */
	unload(): Promise<void>;
	/** Engine-wide: stops whatever is generating. */
	interruptGenerate(): void | Promise<void>;
	setInitProgressCallback(cb: InitProgressCallback): void;
	setAppConfig?(appConfig: AppConfig): void;
	runtimeStatsText?(modelId?: string): Promise<string>;
	completions: {
		create(req: CompletionCreateParamsStreaming): Promise<AsyncIterable<Completion>>;
	};
	chat: {
		completions: {
			create(req: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>>;
		};
	};
}

/** web-llm's cache helpers (hasModelInCache, deleteModelAllInfoInCache) plus a size probe. */
export interface CacheSurface {
	has?(model: string, appConfig?: AppConfig): Promise<boolean>;
	delete?(model: string, appConfig?: AppConfig): Promise<void>;
	sizes?(model: string, appConfig?: AppConfig): Promise<CacheSizes>;
	/**
	 * Drop only the cached mlc-chat-config.json and model library (deleteChatConfigInCache,
	 * deleteModelWasmInCache): web-llm's delete-all stops at a missing tensor-cache.json first.
	 */
	forgetConfig?(model: string, appConfig?: AppConfig): Promise<void>;
	/**
	 * The Cache API web-llm keeps its files in: what a load took from a model mirror is checked
	 * there against the mirror's index.json (mirrorCheck.ts). Absent: not checked.
	 */
	caches?: MirrorCaches;
}

export type { Post };

export interface HandlerOptions {
	/**
	 * web-llm's prebuilt list: a page's appConfig carries only its custom models and is added to
	 * this one, so catalog models stay loadable. Absent (tests): the page's list is used as is.
	 */
	baseAppConfig?: AppConfig;
	/** Reads a failed custom model's files to say which one is wrong (diagnose.ts). */
	fetch?: DiagnoseFetch;
}

/** The load phase shown while a new load waits for a cancelled one that web-llm is still finishing. */
export const CANCELLED_LOAD_PHASE = 'finishing the cancelled load…';
/** The progress text of a model a load keeps resident instead of reloading. */
export const KEPT_TEXT = 'Already on the GPU: kept, not reloaded.';

/**
 * @param newEngine makes an empty MLCEngine; the worker holds one per resident model (pool.ts).
 * @returns the worker's message handler. Requests that touch the GPU or the cache contents are
 * serialized; abort, stats and read-only cache queries answer at once, even mid-generation.
 */
export function createHandler(
	newEngine: EngineFactory,
	post: Post,
	cache: CacheSurface = {},
	opts: HandlerOptions = {}
): (data: unknown) => void {
	const pool = new EnginePool(newEngine);
	/** The page's custom models as last sent (before merging with the base list). */
	let appConfig: AppConfig | undefined;
	const withBase = (config: AppConfig | undefined) =>
		config && opts.baseAppConfig ? mergeAppConfig(opts.baseAppConfig, config) : config;

	/**
	 * With a mirror, the catalog models to load that are not cached from the Hub, as records
	 * pointing at the mirror.
	 */
	async function mirrorRecords(
		models: string[],
		config: AppConfig | undefined,
		mirror: string | undefined
	): Promise<ModelRecord[]> {
		const base = opts.baseAppConfig;
		if (!mirror || !base) return [];
		const own = new Set(config?.model_list.map((r) => r.model_id));
		const records = [];
		for (const id of models) {
			const record = base.model_list.find((r) => r.model_id === id);
			if (!record || own.has(id)) continue;
			// Cached from the Hub: it stays cached, whatever the source now.
			if (await cache.has?.(id, withBase(config) ?? base).catch(() => false)) continue;
			records.push(mirroredRecord(record, mirror));
		}
		return records;
	}

	/**
	 * The page's list plus the mirror's records. Sent as the page's own records, so a failed load
	 * is diagnosed like a custom model's and names the mirror's missing file.
	 */
	function withRecords(config: AppConfig | undefined, records: ModelRecord[]) {
		if (records.length === 0) return config;
		return { ...config, model_list: [...(config?.model_list ?? []), ...records] };
	}

	/**
	 * The check of a load's files from the mirror (mirrorCheck.ts), for some of its models: none
	 * without a manifest to check against, or where web-llm keeps its files out of the Cache API.
	 */
	function mirrorCheck(
		source: MirrorSource | undefined,
		records: ModelRecord[],
		config: AppConfig | undefined
	): (models: readonly string[], signal?: AbortSignal) => Promise<void> {
		const { caches } = cache;
		const manifest = source?.manifest;
		const full = withBase(config) ?? config;
		if (!caches || !source || !manifest || (full && !usesCacheApi(full))) return async () => {};
		return (models, signal) =>
			verifyMirrorCopies(
				caches,
				normalizeMirrorBase(source.base),
				manifest,
				records.filter((r) => models.includes(r.model_id)),
				signal
			);
	}

	/**
	 * Before a load: stamps of copies deleted since (set-up's Delete, another tab, the browser's
	 * own tools) go, so a copy web-llm downloads anew is checked anew.
	 */
	async function forgetDeleted(): Promise<void> {
		if (cache.caches) await pruneMirrorStamps(cache.caches).catch(() => {});
	}

	async function load({ models, appConfig: sent, mirror }: LoadMessage, job: Job) {
		const unique = [...new Set(models)];
		const mirrored = await mirrorRecords(unique, sent, mirror?.base);
		const config = withRecords(sent, mirrored);
		const verify = mirrorCheck(mirror, mirrored, config);
		/** The check's own failure: already names the file. */
		let named: unknown;
		const folds = new Map(unique.map((m) => [m, createProgressFolder([m])]));
		if (config) {
			pool.setAppConfig(withBase(config) ?? config);
			appConfig = config;
		}
		// A kept model reports no progress of its own: say it is ready, so its bar is not left at 0.
		for (const model of pool.keeps(unique)) {
			job.progress({ model, fraction: 1, phase: 'ready', text: KEPT_TEXT });
		}
		if (mirrored.length > 0) await forgetDeleted();
		const stop = () => void Promise.resolve(pool.abortLoad()).catch(() => undefined);
		job.signal.addEventListener('abort', stop, { once: true });
		try {
			await pool.load(unique, {
				aborted: () => job.signal.aborted,
				onReport: (model, report) => {
					const fold = folds.get(model);
					if (fold) job.progress(fold(report));
				},
				verify: (model) =>
					verify([model], job.signal).catch((e: unknown) => {
						named = e;
						throw e;
					})
			});
		} catch (err) {
			if (job.signal.aborted || err === named) throw err;
			// A copy cut short fails inside web-llm in words that name no file: the check names it.
			const bad = await verify(unique).then(
				() => undefined,
				(e: unknown) => (e instanceof EngineError ? e : undefined)
			);
			throw bad || (await explainCustom(unique, config ?? appConfig, mirror?.base)) || err;
		} finally {
			job.signal.removeEventListener('abort', stop);
		}
		return null;
	}

	/**
	 * A failed load of a custom model: which of its files is missing or broken, if one is. Then its
	 * cached config and library go (web-llm keeps a malformed config it fetched), so fixed files
	 * are read on the next load instead of the broken copy; downloaded weights stay.
	 */
	async function explainCustom(models: string[], config: AppConfig | undefined, mirror?: string) {
		const custom = models
			.map((id) => config?.model_list.find((r) => r.model_id === id))
			.filter((r) => r !== undefined);
		if (custom.length === 0 || !opts.fetch) return undefined;
		const base = mirror ? normalizeMirrorBase(mirror) : undefined;
		const problem = await diagnoseCustomLoad(custom, opts.fetch, base).catch(() => undefined);
		if (problem?.code === 'bad_model' && cache.forgetConfig) {
			for (const r of custom) {
				await cache.forgetConfig(r.model_id, withBase(config)).catch(() => {});
			}
		}
		return problem;
	}

	/**
	 * Run a generation on the engine holding `model`; an abort interrupts that engine (engine-wide:
	 * safe because the host runs one request at a time). A failure that lost the model is noted.
	 */
	async function generating<T>(
		model: string,
		job: Job,
		run: (engine: WebLLMSurface) => Promise<T>
	): Promise<T> {
		const engine = pool.engineFor(model);
		const stop = () => {
			try {
				void Promise.resolve(engine.interruptGenerate()).catch(() => undefined);
			} catch {
				// Nothing generating to stop: the stream loop sees the abort anyway.
			}
		};
		job.signal.addEventListener('abort', stop, { once: true });
		try {
			return await run(engine);
		} catch (err) {
			pool.noteFailure(model, err);
			throw err;
		} finally {
			job.signal.removeEventListener('abort', stop);
		}
	}

	async function complete(req: WireCompletionRequest, job: Job) {
		return generating(req.model, job, async (engine) =>
			collect(
				await engine.completions.create(completionFields(req)),
				(c) => c.choices[0]?.text,
				job.signal,
				job.token
			)
		);
	}

	async function chatJson(req: WireJsonChatRequest, job: Job) {
		return generating(req.model, job, (engine) => chatJsonOn(engine, req, job.signal));
	}

	async function chatJsonOn(engine: WebLLMSurface, req: WireJsonChatRequest, ctl: StreamControl) {
		const stream = await engine.chat.completions.create({
			model: req.model,
			messages: req.messages.map(
				(m) => ({ role: m.role, content: m.content }) as ChatCompletionMessageParam
			),
			...samplingFields(req),
			...STREAMED,
			// web-llm wants the schema as a JSON string, and enforces it with a grammar.
			response_format: { type: 'json_object', schema: JSON.stringify(req.schema) }
		});
		return collect(stream, (c) => c.choices[0]?.delta?.content, ctl);
	}

	async function cacheQuery(msg: CacheQueryMessage): Promise<CacheQueryResult> {
		const { op, model } = msg;
		// The page's list wins: before any load this worker has none of its own.
		const config = withBase(msg.appConfig ?? appConfig);
		const missing = () => new Error(`Cache query "${op}" is not available in this worker.`);
		switch (op) {
			case 'has': {
				if (!cache.has) throw missing();
				if (await cache.has(model, config)) return { op, model, cached: true };
				// Cached from the model mirror counts too.
				const sent = msg.appConfig ?? appConfig;
				const viaMirror = await mirrorRecords([model], sent, msg.mirror);
				const cached =
					viaMirror.length > 0
						? await cache.has(model, withBase(withRecords(sent, viaMirror)))
						: false;
				return { op, model, cached };
			}
			case 'delete':
				if (!cache.delete) throw missing();
				await cache.delete(model, config);
				return { op, model };
			case 'sizes':
				if (!cache.sizes) throw missing();
				return { op, model, sizes: await cache.sizes(model, config) };
		}
	}

	async function stats(): Promise<WorkerStats> {
		const running = host.running?.kind ?? null;
		const loaded = pool.resident;
		const out: WorkerStats = { loaded, running, queued: host.queued };
		const engine = loaded.length > 0 ? pool.engineFor(loaded[0]) : undefined;
		if (engine?.runtimeStatsText && running !== 'load') {
			out.runtime = await engine.runtimeStatsText(loaded[0]).catch(() => undefined);
		}
		return out;
	}

	const host = createWorkerHost<WorkerRequest>(
		{
			load: {
				// A cancelled load answered the page at once, but web-llm keeps compiling shaders until
				// it is done (seconds to minutes): say why this load waits instead of sitting at 0 %.
				arrive: (msg, job) => {
					if (host.running?.kind !== 'load' || !host.running.aborted) return;
					for (const model of new Set(msg.models)) {
						job.progress({ model, fraction: 0, phase: CANCELLED_LOAD_PHASE });
					}
				},
				run: load
			},
			unload: {
				line: 'final',
				run: async () => {
					await pool.unload();
					return null;
				}
			},
			complete: { run: (msg, job) => complete(msg.req, job) },
			chatJson: { run: (msg, job) => chatJson(msg.req, job) },
			// Deleting must not race a load of the same files; reads need not wait for a run.
			cacheQuery: { line: (msg) => (msg.op === 'delete' ? 'final' : 'now'), run: cacheQuery },
			stats: { line: 'now', run: stats }
		},
		post
	);
	return host.handle;
}
