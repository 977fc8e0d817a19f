/**
 * What `run` reads before it prepares a run: its chat template (a file, a shipped or fetched repo,
 * or the one the server applies) and its dataset (by name, or a file). The start's template and
 * dataset steps (probe/start.ts) call these.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { AppError } from '../lib/errors/appError.ts';
import { DATASET_NAMES, isDatasetName, loadDataset } from '../lib/datasets/registry.ts';
import { parseUserDataset } from '../lib/datasets/importFile.ts';
import type { OpenAIEngine } from '../lib/engines/server/client.ts';
import type { ChatTemplate } from '../lib/probe/template.ts';
import { parseTokenizerConfig, templateFromFile } from '../lib/probe/templateSource.ts';
import type { DatasetItem } from '../lib/probe/types.ts';
import { loadFromRepos, loadServerTemplate, type TemplateDeps } from '../lib/setup/templates.ts';
import { shippedTemplateIn } from '../lib/templates/entry.ts';
import { packagedTemplates } from '../lib/templates/packaged.ts';
import { UsageError, type RunOptions } from './args.ts';
import { requireFile } from './lines.ts';

/** What reading the inputs needs of the CLI's world (run.ts RunIO). */
export interface InputIO {
	stderr: { write(s: string): unknown };
	signal?: AbortSignal;
	fetch?: typeof fetch;
}

/** `hfToken` is passed to the Hub for a gated dataset only; it is never written anywhere. */
export async function loadItems(
	dataset: string,
	io: InputIO,
	hfToken?: string
): Promise<DatasetItem[]> {
	if (isDatasetName(dataset)) {
		return loadDataset(dataset, {
			fetch: io.fetch ?? fetch,
			signal: io.signal,
			token: hfToken,
			onProgress: (done, total) => io.stderr.write(`dataset ${dataset}: ${done}/${total} rows\n`)
		});
	}
	if (!existsSync(dataset))
		throw new UsageError(
			`--dataset: "${dataset}" is neither a dataset name (${DATASET_NAMES.join(', ')}) nor a file`
		);
	const bytes = statSync(dataset).size;
	if (bytes > DATASET_FILE_MAX_BYTES) throw new DatasetFileTooLargeError(dataset, bytes);
	return parseUserDataset(readFileSync(dataset, 'utf8'), dataset);
}

/**
 * A dataset file is read whole, as one string, and V8 strings stop at 512 MiB; far below that,
 * a file this large is not a probe dataset (each item is one question).
 */
export const DATASET_FILE_MAX_BYTES = 256 * 1024 * 1024;

export class DatasetFileTooLargeError extends AppError {
	constructor(path: string, bytes: number) {
		super(
			`${path} is ${(bytes / 1024 ** 2).toFixed(0)} MB; a dataset file may be at most ` +
				`${DATASET_FILE_MAX_BYTES / 1024 ** 2} MB`,
			{
				code: 'dataset_file_too_large',
				recovery: 'use a smaller file (the probe samples --limit items from it anyway)'
			}
		);
		this.name = 'DatasetFileTooLargeError';
	}
}

/**
 * --template as a path to a .jinja or tokenizer_config.json, else a Hugging Face repo id (shipped
 * with the app, or fetched). Without --template: the template the server applies (llama-server
 * /props), else --model's repo, as set-up does in the app (setup/templates.ts).
 */
export async function loadTemplate(
	opts: RunOptions,
	io: InputIO,
	server?: Pick<OpenAIEngine, 'servedTemplate'>
): Promise<ChatTemplate> {
	const spec = opts.template ?? opts.model;
	if (spec.endsWith('.jinja') || spec.endsWith('.json')) requireFile(spec, 'template file');
	if (spec.endsWith('.jinja')) {
		io.stderr.write(`chat template: ${spec}\n`);
		return templateFromFile(readFileSync(spec, 'utf8'), {
			bos_token: opts.bosToken,
			eos_token: opts.eosToken
		});
	}
	if (spec.endsWith('.json')) {
		io.stderr.write(`chat template: ${spec}\n`);
		return parseTokenizerConfig(readFileSync(spec, 'utf8'), spec);
	}
	const deps: TemplateDeps = {
		fetch: io.fetch ?? fetch,
		signal: io.signal,
		shipped: (repo) => shippedTemplateIn(packagedTemplates(), repo),
		served: server && (() => server.servedTemplate(io.signal))
	};
	const t =
		opts.template !== undefined
			? await loadFromRepos([spec], deps)
			: await loadServerTemplate(
					{ kind: 'server', baseUrl: opts.baseUrl, repos: spec.includes('/') ? [spec] : [] },
					deps
				);
	io.stderr.write(`chat template: ${templateOrigin(t, spec)}\n`);
	return t;
}

function templateOrigin(t: ChatTemplate, spec: string): string {
	if (t.server) return `served by the server (${t.server}); --template chooses another`;
	if (t.provenance) return `${t.repo ?? spec}, shipped with the app (${t.provenance})`;
	return t.repo ?? spec;
}
