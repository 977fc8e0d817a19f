/**
 * The page ↔ web-llm-worker protocol: the shared requests and replies (worker/protocol.ts) plus
 * what only this worker takes. Ours, not web-llm's: its CreateWebWorkerMLCEngine makes the page
 * bundle the whole library, while these messages are plain data and cost the page nothing.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { MirrorSource } from '../mirror.ts';
import type {
	BaseWorkerStats,
	CacheQueryMessage as BaseCacheQuery,
	SharedResults,
	SharedRequest
} from '../worker/protocol.ts';

export interface LoadMessage {
	kind: 'load';
	id: number;
	/**
	 * Exactly the models to have resident afterwards. One already loaded stays as it is (a judge
	 * kept between runs: naming it again is how the page says "keep it"); the others are freed.
	 */
	models: string[];
	/** Only for models outside web-llm's prebuiltAppConfig. */
	appConfig?: AppConfig;
	/**
	 * A model mirror: catalog models not yet cached load from its base, and what they take from it
	 * is checked against its manifest, when the page has read one (engines/mirror.ts).
	 */
	mirror?: MirrorSource;
}
export interface CacheQueryMessage extends BaseCacheQuery {
	/** The page's custom model list, so a query before any load can find models outside the catalog. */
	appConfig?: AppConfig;
	/** A model mirror's base: a model cached from it counts as cached too. */
	mirror?: string;
}

export type WorkerRequest = LoadMessage | CacheQueryMessage | SharedRequest;

export type RequestKind = WorkerRequest['kind'];

export interface WorkerStats extends BaseWorkerStats<RequestKind> {
	/** web-llm's runtimeStatsText() for the first loaded model, when available. */
	runtime?: string;
}

/** What `result.value` holds for each request kind. */
export interface ResultByKind extends SharedResults {
	load: null;
	stats: WorkerStats;
}
