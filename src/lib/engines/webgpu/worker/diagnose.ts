/**
 * Why a custom (bring-your-own) model failed to load, in words that name the file. web-llm's own
 * errors do not: a 404 arrives as Chrome's "Failed to execute 'add' on 'Cache': Request failed"
 * (read as a Hugging Face download failure) and a malformed config as a bare JSON SyntaxError.
 * After a failed load, the worker fetches the model's config and library itself and says which
 * one is missing or broken; nothing is fetched when a load succeeds.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import { EngineError } from '../../../probe/engine.ts';
import { MIRROR_HELP, missing } from '../../mirror.ts';
import { modelFileUrl } from '../custom.ts';

export type DiagnoseFetch = (url: string, init?: RequestInit) => Promise<Response>;

const CHECK_URL =
	'Check the model URL: web-llm reads mlc-chat-config.json, tensor-cache.json, the weight shards and the tokenizer files from';

/**
 * @param mirror a model mirror's base (engines/mirror.ts): a catalog model's record pointing there
 *   is worded as the mirror's file, as the CPU engine words it, not as "your model".
 * @returns the first problem found across the records (in load order), or undefined when their
 * config and library are reachable and the config is JSON (the original error then stands).
 */
export async function diagnoseCustomLoad(
	records: readonly ModelRecord[],
	fetchFn: DiagnoseFetch,
	mirror?: string
): Promise<EngineError | undefined> {
	for (const record of records) {
		const problem = await diagnoseOne(record, fetchFn, mirror);
		if (problem) return problem;
	}
	return undefined;
}

/** A file of the mirror that answered `status`, named as the mirror's; else undefined. */
function mirrorMissing(url: string, status: number, mirror?: string): EngineError | undefined {
	if (!mirror || !url.startsWith(`${mirror}/`)) return undefined;
	return new EngineError(
		'bad_model',
		missing(mirror, url.slice(mirror.length + 1), status),
		MIRROR_HELP
	);
}

async function diagnoseOne(
	record: ModelRecord,
	fetchFn: DiagnoseFetch,
	mirror?: string
): Promise<EngineError | undefined> {
	const who = `Your model "${record.model_id}"`;
	const base = modelFileUrl({ model_url: record.model }, '');
	const configUrl = modelFileUrl({ model_url: record.model }, 'mlc-chat-config.json');
	const config = await tryFetch(configUrl, fetchFn);
	if ('error' in config) return unreachable(who, configUrl, config.error);
	if (!config.res.ok) {
		const fromMirror = mirrorMissing(configUrl, config.res.status, mirror);
		if (fromMirror) return fromMirror;
		return new EngineError(
			'bad_model',
			`${who} could not load: ${configUrl} answered HTTP ${config.res.status}${statusText(config.res)}.`,
			`${CHECK_URL} ${base}.`
		);
	}
	try {
		JSON.parse(await config.res.text());
	} catch (err) {
		return new EngineError(
			'bad_model',
			`${who} could not load: ${configUrl} is not valid JSON (${messageOf(err)}).`,
			`Serve the mlc-chat-config.json that mlc_llm gen_config wrote for these weights. ${CHECK_URL} ${base}.`
		);
	}
	const lib = await tryFetch(record.model_lib, fetchFn);
	if ('error' in lib) return unreachable(who, record.model_lib, lib.error);
	void lib.res.body?.cancel().catch(() => undefined);
	if (!lib.res.ok) {
		const fromMirror = mirrorMissing(record.model_lib, lib.res.status, mirror);
		if (fromMirror) return fromMirror;
		return new EngineError(
			'bad_model',
			`${who} could not load: its model library ${record.model_lib} answered HTTP ${lib.res.status}${statusText(lib.res)}.`,
			'Check the model library URL: it must point at the .wasm file built for web-llm 0.2.86.'
		);
	}
	return undefined;
}

async function tryFetch(
	url: string,
	fetchFn: DiagnoseFetch
): Promise<{ res: Response } | { error: unknown }> {
	try {
		return { res: await fetchFn(url, { cache: 'no-store' }) };
	} catch (error) {
		return { error };
	}
}

function unreachable(who: string, url: string, err: unknown): EngineError {
	return new EngineError(
		'network',
		`${who} could not load: ${url} could not be reached (${messageOf(err)}).`,
		'Check that the server holding the model is running and lets this page read its files (CORS: Access-Control-Allow-Origin), then retry.',
		true
	);
}

function statusText(res: Response): string {
	return res.statusText ? ` ${res.statusText}` : '';
}

function messageOf(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
