/**
 * "Bring your own MLC model": a web-llm model outside the catalog (a fine-tune, a local build),
 * described by the user as its weights' base URL, its model library (.wasm) URL and its context
 * window. Pure: validation, the web-llm ModelRecord it becomes, and the URLs web-llm will fetch.
 */
import type { AppConfig, ModelRecord } from '@mlc-ai/web-llm';
import { viaMirror } from '../mirror.ts';

export interface CustomMlcModel {
	/** web-llm model_id: what runs record as the model, unique among catalog and custom ids. */
	id: string;
	/** Shown in the pickers. */
	label: string;
	/** Base URL of the MLC weights (mlc-chat-config.json, tensor-cache.json, shards, tokenizer). */
	model_url: string;
	/** The compiled model library (.wasm), built for web-llm 0.2.86. */
	model_lib_url: string;
	/** Tokens the model's context holds (web-llm's context_window_size). */
	context_window: number;
}

/** What the form holds before validation: strings as typed. */
export interface CustomMlcInput {
	id: string;
	label: string;
	model_url: string;
	model_lib_url: string;
	context_window: string;
}

/** Prefix of a custom model's picker key, so it never collides with a catalog key. */
export const CUSTOM_MLC_PREFIX = 'custom:';

/** Larger than any model this app can run in a page; a bigger number is a typo. */
export const MAX_CONTEXT_WINDOW = 1_048_576;

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function customKey(id: string): string {
	return CUSTOM_MLC_PREFIX + id;
}

/**
 * Problems with one URL field, worded for the form: https anywhere, plain http only for this
 * computer (a page served over https cannot fetch other http hosts, and weights sent in the clear
 * could be swapped on the way).
 */
export function customUrlProblem(field: string, text: string): string | null {
	const value = text.trim();
	if (!value) return `Enter the ${field}.`;
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return `The ${field} "${value}" is not a URL (it must start with https://).`;
	}
	if (url.protocol === 'https:') return null;
	if (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)) return null;
	if (url.protocol === 'http:') {
		return `The ${field} must use https:// (plain http:// only for 127.0.0.1 or localhost): ${value}`;
	}
	return `The ${field} must start with https:// (or http://127.0.0.1 for a local server): ${value}`;
}

/**
 * Everything wrong with the typed model, or a valid model.
 * @param takenIds catalog ids and the ids of the custom models already added.
 */
export function parseCustomModel(
	input: CustomMlcInput,
	takenIds: readonly string[]
): { model: CustomMlcModel; problems: [] } | { model?: undefined; problems: string[] } {
	const problems: string[] = [];
	const id = input.id.trim();
	if (!id) problems.push('Enter a model id (e.g. MyModel-q4f16_1-MLC).');
	else if (/\s/.test(id)) problems.push(`The model id "${id}" must not contain spaces.`);
	else if (id.length > 128) problems.push('The model id is longer than 128 characters.');
	else if (takenIds.includes(id)) {
		problems.push(`A model with the id "${id}" exists already: choose another id.`);
	}
	for (const [field, value] of [
		['model URL', input.model_url],
		['model library URL', input.model_lib_url]
	] as const) {
		const problem = customUrlProblem(field, value);
		if (problem) problems.push(problem);
	}
	const ctxText = input.context_window.trim();
	const ctx = Number(ctxText);
	if (!ctxText || !Number.isInteger(ctx) || ctx < 1) {
		problems.push(
			`The context window must be a whole number of tokens above 0 (e.g. 4096), not "${ctxText}".`
		);
	} else if (ctx > MAX_CONTEXT_WINDOW) {
		problems.push(
			`The context window must be at most ${MAX_CONTEXT_WINDOW.toLocaleString('en')} tokens.`
		);
	}
	if (problems.length > 0) return { problems };
	return {
		model: {
			id,
			label: input.label.trim() || id,
			model_url: input.model_url.trim(),
			model_lib_url: input.model_lib_url.trim(),
			context_window: ctx
		},
		problems: []
	};
}

/**
 * Stored models as read back (localStorage can hold an old or hand-edited list): the valid ones,
 * each id once, never one that shadows a catalog id.
 */
export function readCustomModels(stored: unknown, catalogIds: readonly string[]): CustomMlcModel[] {
	if (!Array.isArray(stored)) return [];
	const out: CustomMlcModel[] = [];
	for (const raw of stored) {
		const m = raw as Partial<CustomMlcModel> | null;
		if (!m || typeof m !== 'object') continue;
		const parsed = parseCustomModel(
			{
				id: String(m.id ?? ''),
				label: String(m.label ?? ''),
				model_url: String(m.model_url ?? ''),
				model_lib_url: String(m.model_lib_url ?? ''),
				context_window: String(m.context_window ?? '')
			},
			[...catalogIds, ...out.map((o) => o.id)]
		);
		if (parsed.model) out.push(parsed.model);
	}
	return out;
}

/**
 * The base web-llm reads the files from. Mirrors web-llm 0.2.86's cleanModelUrl: a URL without a
 * "/resolve/<rev>/" part gets "resolve/main/" appended (Hugging Face's layout), so a local server
 * must serve the files under that path too.
 */
export function modelFilesBase(modelUrl: string): string {
	let url = modelUrl.trim();
	if (!url.endsWith('/')) url += '/';
	if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
	return new URL(url).href;
}

/** Where web-llm fetches one of the model's files (mlc-chat-config.json, tokenizer_config.json…). */
export function modelFileUrl(model: Pick<CustomMlcModel, 'model_url'>, file: string): string {
	return new URL(file, modelFilesBase(model.model_url)).href;
}

/** The web-llm ModelRecord: the context window goes in as an override of mlc-chat-config.json. */
export function customModelRecord(model: CustomMlcModel): ModelRecord {
	return {
		model: model.model_url,
		model_id: model.id,
		model_lib: model.model_lib_url,
		overrides: { context_window_size: model.context_window }
	};
}

/**
 * The appConfig the page sends for custom models: their records only. The worker adds them to
 * web-llm's prebuilt list (mergeAppConfig), so catalog models stay loadable alongside them.
 * undefined when there are none (the worker then uses web-llm's own list).
 */
export function customAppConfig(models: readonly CustomMlcModel[]): AppConfig | undefined {
	return models.length > 0 ? { model_list: models.map(customModelRecord) } : undefined;
}

/** `base` (web-llm's prebuilt list) plus `extra`'s models; extra's record wins on the same id. */
export function mergeAppConfig(base: AppConfig, extra: AppConfig): AppConfig {
	const ids = new Set(extra.model_list.map((r) => r.model_id));
	return {
		...base,
		...extra,
		model_list: [...base.model_list.filter((r) => !ids.has(r.model_id)), ...extra.model_list]
	};
}

/**
 * A catalog model's record taking its weights and model library from a model mirror
 * (engines/mirror.ts): `<base>/<owner>/<repo>` for the weights (web-llm appends resolve/main/),
 * and the library's GitHub-raw URL in the same layout. The id stays, so runs record the same model.
 */
export function mirroredRecord(record: ModelRecord, base: string): ModelRecord {
	return {
		...record,
		model: viaMirror(record.model, base),
		model_lib: viaMirror(record.model_lib, base)
	};
}
