/**
 * The Engine contract, re-exported for app code (views, state, workers) so it imports engines from
 * one place. The definitions live in the pure core, which must not depend on src/lib/engines.
 */
export type {
	CompletionRequest,
	CompletionResult,
	Engine,
	EngineCapabilities,
	EngineErrorCode,
	JsonChatRequest,
	LoadProgress
} from '../probe/engine.ts';
export { EngineError } from '../probe/engine.ts';
export { AbortError } from '../errors/appError.ts';
