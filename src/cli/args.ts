/** Flags of `user-turn-probe run`, parsed and checked into a plain options object. */
import { AppError } from '../lib/errors/appError.ts';
import { parseArgs } from 'node:util';
import { datasetHelp } from '../lib/datasets/registry.ts';
import { PERTURBATIONS, type JudgeMode, type Perturbation } from '../lib/probe/types.ts';
import { DEFAULT_ANSWER_MAX_TOKENS } from '../lib/probe/runConfig.ts';
import { RUN_DEFAULTS } from '../lib/probe/runValues.ts';
import { outputClash, outputsOf, runInputs } from './outPaths.ts';
import {
	QUESTION_SLOT,
	TASK_PRESETS,
	presetTemplate,
	taskPromptProblems,
	type TaskPreset,
	type TaskPrompt
} from '../lib/probe/taskPrompt.ts';
import {
	REASONING_EFFORTS,
	USER_HEADER_CUTS,
	type ReasoningEffort,
	type UserHeaderCut
} from '../lib/probe/types.ts';

export interface RunOptions {
	baseUrl: string;
	model: string;
	apiKey?: string;
	/** Hugging Face token for a gated dataset; sent to huggingface.co only, never written. */
	hfToken?: string;
	/** Replace the hosts of NLTK's data packages and syllapy's word list (a mirror, or a test). */
	nltkDataUrl?: string;
	syllapyUrl?: string;
	judgeBaseUrl?: string;
	judgeModel: string;
	judgeApiKey?: string;
	judgeMode: JudgeMode;
	dataset: string;
	limit: number;
	seed: number;
	temperatures: number[];
	perturbations: Perturbation[];
	samples: number;
	template?: string;
	eosToken?: string;
	bosToken?: string;
	out: string;
	concurrency: number;
	maxTokens: number;
	/** 'auto': from the server's context window where it tells it, else DEFAULT_ANSWER_MAX_TOKENS. */
	answerMaxTokens: number | 'auto';
	/** enable_thinking; undefined: the template's own default. */
	thinking: boolean | undefined;
	/** Where the probe's user header stops; undefined: the template family's rule. */
	userHeader?: UserHeaderCut;
	/** gpt-oss's reasoning effort; undefined: the template's own default. */
	reasoningEffort?: ReasoningEffort;
	truncateFraction: number;
	appendText: string;
	/** How the question is put to the model, and an optional system turn (taskPrompt.ts). */
	taskPrompt: TaskPrompt;
	runId?: string;
	timeoutMs: number;
	/** The whole of one completion or judge request (default: derived from max_tokens). */
	requestTimeoutMs?: number;
	/** The size of one completion stream or judge body, in bytes (default: from max_tokens). */
	maxReplyBytes?: number;
	/** Delete what --out holds and start a new run there (else a changed config is refused). */
	overwrite: boolean;
	/** Resume although the server no longer reports a model fingerprint the run stored. */
	acceptUncheckedModel: boolean;
}

/** The command line was wrong: exit 2, with the usage text after the message. */
export class UsageError extends AppError {
	readonly usage: string;
	constructor(message: string, usage: string = RUN_USAGE) {
		super(message, { code: 'usage' });
		this.name = 'UsageError';
		this.usage = usage;
	}
}

/**
 * Where a command-line run's defaults differ from the app's (every other default is the app's,
 * RUN_DEFAULTS): a CLI run samples 20 items at T=0 and T=1 (RUN_DEFAULTS draws every item at T=0;
 * set-up's form proposes 10 at 0, 0.5 and 1), with 4 requests in flight and 5 minutes of a
 * server's silence allowed (neither is a run value: results do not depend on them). --help says
 * each, and says they differ.
 */
export const CLI_DEFAULTS = {
	limit: 20,
	temperatures: [0, 1],
	concurrency: 4,
	timeoutMs: 300_000
} as const;

const D = RUN_DEFAULTS;
const C = CLI_DEFAULTS;

export const RUN_USAGE = `Usage: user-turn-probe run --base-url URL --model ID --judge-model ID --dataset NAME|PATH --out PATH.jsonl [options]

  --base-url URL          OpenAI-compatible server of the generator (vLLM, SGLang, llama.cpp, Ollama);
                          with several models, one URL for all or one per model (comma-separated)
  --model ID              served model id; without --template its chat template is the server's own
                          (llama-server /props), else the Hugging Face repo ID names;
                          a,b,c sweeps the models one after another on the same items, seeds, conditions
                          and judge: one run per model (OUT.<model>.jsonl), OUT.study.json listing them
                          and, once all are done, OUT.study.jsonl holding them (Runs → Import in the app)
  --api-key K             bearer token (or env USER_TURN_PROBE_API_KEY)
  --judge-base-url URL    server of the judge (default: --base-url)
  --judge-model ID        judge model id (default with --judge-mode rules: --model)
  --judge-api-key K       bearer token of the judge server (default: --api-key)
  --judge-mode MODE       rules | llm | hybrid (default ${D.judge_mode}); rules: no judge model, and a turn
                          no rule applies to stays undecided (counted, but out of the follow-up
                          rate): the rules tell failure modes, never a genuine follow-up
  --dataset NAME|PATH     one of these names, or a local .jsonl/.json/.csv file:
${datasetHelp('    ')}
  --hf-token T            Hugging Face token for a gated dataset (accept its terms on huggingface.co
                          first; or env HF_TOKEN); sent to huggingface.co only, never written to --out
  --nltk-data-url BASE    where NLTK's data packages are read for instruction scoring (default
                          https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages); cached
                          in $XDG_CACHE_HOME/user-turn-probe/nlp (default ~/.cache/…)
  --syllapy-url BASE      where syllapy 0.7.2's data.csv is read (default: its GitHub commit)
  --limit N               items to sample (default ${C.limit}; 0 = all)
  --seed S                sampling and generation seed, an integer ≥ 0 (default ${D.seed})
  --temperatures LIST     distinct values in [0, 2], e.g. 0,0.5,1 (default ${C.temperatures.join(',')})
  --perturbations LIST    distinct names of ${PERTURBATIONS.join(', ')} (default ${D.perturbations.join(',')});
                          neutral, contradict and header_only: controls from a review of
                          the paper (its simulated author reply), not the paper's
  --samples K             user turns per condition, ≥ 1 (default ${D.samples})
  --template T            PATH.jinja, PATH tokenizer_config.json or HF_REPO_ID (the app's shipped
                          templates need no network); wins over the server's own
  --eos-token TOK         end-of-turn token for a .jinja template
  --bos-token TOK         beginning-of-text token for a .jinja template
  --out PATH.jsonl        records (its folder is made); PATH.manifest.json and PATH.answers.jsonl
                          go beside it
  --overwrite             delete what --out holds and start a new run there
  --accept-unchecked-model  resume although the server no longer reports a fingerprint of the
                          model's weights that the run stored (check they are the same first)
  --run-id ID             name the run (default: from the model, dataset and seed)
  --concurrency C         requests in flight (default ${C.concurrency}; results do not depend on it)
  --max-tokens M          user-turn tokens (default ${D.max_tokens})
  --answer-max-tokens M   assistant-answer tokens, or auto (default): what the server's context
                          window leaves (vLLM max_model_len, llama-server /props), else ${DEFAULT_ANSWER_MAX_TOKENS}
  --thinking, --no-thinking  enable_thinking on or off (default: the template's own default,
                          on for Qwen3, Qwen3.5 and GLM-4.7-Flash; the manifest records what was used)
  --user-header CUT       where the probe's user header stops: template (the whole header the
                          template writes) or role (right after the role name). Default: role
                          for gpt-oss ("<|start|>user", inferred from the paper's appendix
                          example), template for the others
  --reasoning-effort E    low | medium | high: gpt-oss's "Reasoning:" line (default: the
                          template's own, medium); refused for templates without one
  --truncate-fraction F   share of the answer kept by truncate, in (0, 1] (default ${D.truncate_fraction})
  --append-text TEXT      what append adds to the answer (default "${D.append_text}", the
                          example one summary of the paper gives; the paper's exact text is
                          not known; the ${D.truncate_fraction} fraction is this app's default, not the paper's)
  --task-prompt P         bare | paper | custom (default ${D.task_prompt.preset}: the question as is). paper: GSM8K
                          items ask for at most 6 short steps and a final line "Answer: <final
                          answer>", the two instructions the paper's appendix example quotes
  --task-template TEXT    custom template with {question} (implies --task-prompt custom)
  --system-prompt TEXT    a system turn before the question (default: none)
  --timeout-ms MS         longest silence of a server in one request (default ${C.timeoutMs})
  --request-timeout-ms MS the whole of one completion or judge request (default: the silence
                          limit plus 0.5 s per token of its max_tokens)
  --max-reply-mb MB       the size of one completion stream or judge reply (default: 2 KB per
                          token of its max_tokens, 1 MB at least)
  --help                  this text
Defaults are the app's, but for --limit ${C.limit}, --temperatures ${C.temperatures.join(',')}, --concurrency ${C.concurrency}
and --timeout-ms ${C.timeoutMs}, which are the command line's own.
Re-running the same command resumes: only missing records are made. A changed setting that
changes what a record means (dataset, models, template, seed, token limits, judge, truncate or
append) is refused: pick another --out, or pass --overwrite. Adding temperatures, perturbations,
samples or items (--limit) extends the run. One run writes an --out at a time (it holds
PATH.lock; a second is refused, and the lock of a run that was killed is taken over).`;

/** A comma-separated list: no empty entries, no value twice (it would make one record twice). */
function list(name: string, value: string): string[] {
	const out = value.split(',').map((x) => x.trim());
	if (out.some((x) => x === ''))
		throw new UsageError(`--${name}: expected a comma-separated list, got "${value}"`);
	const dup = out.find((x, i) => out.indexOf(x) !== i);
	if (dup !== undefined) throw new UsageError(`--${name}: "${dup}" is listed twice`);
	return out;
}

function temperatureList(value: string): number[] {
	const out = list('temperatures', value).map(Number);
	if (out.some((t) => !Number.isFinite(t) || t < 0 || t > 2))
		throw new UsageError(`--temperatures: expected numbers in [0, 2] like 0,0.5,1, got "${value}"`);
	const dup = out.find((t, i) => out.indexOf(t) !== i);
	if (dup !== undefined) throw new UsageError(`--temperatures: ${dup} is listed twice`);
	return out;
}

function int(name: string, value: string | undefined, fallback: number, min = 0): number {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (!/^\s*[+-]?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min)
		throw new UsageError(`--${name}: expected an integer ≥ ${min}, got "${value}"`);
	return n;
}

function optionalInt(name: string, value: string | undefined): number | undefined {
	return value === undefined ? undefined : int(name, value, 0, 1);
}

/** A size in MB (1 MB = 1024² bytes) as bytes; undefined when the flag is absent. */
function mebibytes(name: string, value: string | undefined): number | undefined {
	return value === undefined ? undefined : int(name, value, 0, 1) * 1024 * 1024;
}

/** --answer-max-tokens: absent or "auto" asks the server; else an integer ≥ 1. */
function answerLimit(value: string | undefined): number | 'auto' {
	if (value === undefined || value.trim() === 'auto') return 'auto';
	return int('answer-max-tokens', value, 0, 1);
}

/** Every flag of `run`: exported so a test can check --help names each one. */
export const RUN_OPTIONS = {
	'base-url': { type: 'string' },
	model: { type: 'string' },
	'api-key': { type: 'string' },
	'hf-token': { type: 'string' },
	'nltk-data-url': { type: 'string' },
	'syllapy-url': { type: 'string' },
	'judge-base-url': { type: 'string' },
	'judge-model': { type: 'string' },
	'judge-api-key': { type: 'string' },
	'judge-mode': { type: 'string' },
	dataset: { type: 'string' },
	limit: { type: 'string' },
	seed: { type: 'string' },
	temperatures: { type: 'string' },
	perturbations: { type: 'string' },
	samples: { type: 'string' },
	template: { type: 'string' },
	'eos-token': { type: 'string' },
	'bos-token': { type: 'string' },
	out: { type: 'string' },
	overwrite: { type: 'boolean' },
	'accept-unchecked-model': { type: 'boolean' },
	concurrency: { type: 'string' },
	'max-tokens': { type: 'string' },
	'answer-max-tokens': { type: 'string' },
	thinking: { type: 'boolean' },
	'no-thinking': { type: 'boolean' },
	'user-header': { type: 'string' },
	'reasoning-effort': { type: 'string' },
	'truncate-fraction': { type: 'string' },
	'append-text': { type: 'string' },
	'task-prompt': { type: 'string' },
	'task-template': { type: 'string' },
	'system-prompt': { type: 'string' },
	'run-id': { type: 'string' },
	'timeout-ms': { type: 'string' },
	'request-timeout-ms': { type: 'string' },
	'max-reply-mb': { type: 'string' },
	help: { type: 'boolean' }
} as const;

/** Node's parseArgs errors (unknown flag, a value starting with "-") as usage errors. */
function parse(argv: string[]) {
	try {
		return parseArgs({ args: argv, strict: true, options: RUN_OPTIONS }).values;
	} catch (err) {
		const code = (err as { code?: string }).code;
		if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
			throw new UsageError((err as Error).message.replace(/\s*\n\s*/g, ' '));
		throw err;
	}
}

/** A flag whose value must be one of `allowed`; undefined when the flag is absent. */
function choice<T extends string>(
	name: string,
	value: string | undefined,
	allowed: readonly T[]
): T | undefined {
	if (value === undefined) return undefined;
	if (!(allowed as readonly string[]).includes(value))
		throw new UsageError(`--${name}: ${allowed.join(' or ')}, got "${value}"`);
	return value as T;
}

function nonEmpty(name: string, value: string | undefined): string | undefined {
	if (value !== undefined && value.trim() === '') throw new UsageError(`--${name} is empty`);
	return value;
}

/** @throws UsageError unless `value` (when given) is an http(s) URL. */
function httpUrl(flag: string, value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	let url: URL | undefined;
	try {
		url = new URL(value);
	} catch {
		url = undefined;
	}
	if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
		throw new UsageError(`--${flag}: "${value}" is not an http(s) URL`);
	}
	return value;
}

export function parseRunArgs(
	argv: string[],
	env: Record<string, string | undefined> = {}
): RunOptions {
	const values = parse(argv);
	const required = (name: 'base-url' | 'model' | 'dataset' | 'out'): string => {
		const v = values[name];
		if (v === undefined) throw new UsageError(`--${name} is required`);
		if (v.trim() === '') throw new UsageError(`--${name} is empty`);
		return v;
	};
	const baseUrl = required('base-url');
	const model = required('model');
	const dataset = required('dataset');
	const out = required('out');
	const clash = outputClash(outputsOf(out), runInputs({ dataset, template: values.template }));
	if (clash) throw new UsageError(clash);
	const judgeMode = (values['judge-mode'] ?? D.judge_mode) as JudgeMode;
	if (!['rules', 'llm', 'hybrid'].includes(judgeMode))
		throw new UsageError(`--judge-mode: rules, llm or hybrid, got "${judgeMode}"`);
	const judgeModel =
		values['judge-model'] ?? (judgeMode === 'rules' ? required('model') : undefined);
	if (!judgeModel) throw new UsageError('--judge-model is required (or --judge-mode rules)');
	const perturbations =
		values.perturbations !== undefined
			? list('perturbations', values.perturbations)
			: [...D.perturbations];
	for (const p of perturbations) {
		if (!(PERTURBATIONS as readonly string[]).includes(p))
			throw new UsageError(`--perturbations: unknown "${p}" (${PERTURBATIONS.join(', ')})`);
	}
	const truncateFraction = Number(values['truncate-fraction'] ?? D.truncate_fraction);
	if (values['truncate-fraction']?.trim() === '')
		throw new UsageError('--truncate-fraction must be in (0, 1]');
	if (!(truncateFraction > 0 && truncateFraction <= 1))
		throw new UsageError('--truncate-fraction must be in (0, 1]');
	const preset = (values['task-prompt'] ??
		(values['task-template'] !== undefined ? 'custom' : D.task_prompt.preset)) as TaskPreset;
	if (!(TASK_PRESETS as readonly string[]).includes(preset))
		throw new UsageError(`--task-prompt: bare, paper or custom, got "${preset}"`);
	if (preset === 'custom' && values['task-template'] === undefined)
		throw new UsageError('--task-prompt custom needs --task-template TEXT with {question}');
	const taskPrompt: TaskPrompt = {
		preset,
		template: presetTemplate(preset, values['task-template'] ?? QUESTION_SLOT),
		system: values['system-prompt'] ?? D.task_prompt.system
	};
	const taskProblems = taskPromptProblems(taskPrompt);
	if (taskProblems.length > 0) throw new UsageError(`--task-template: ${taskProblems.join(' ')}`);
	return {
		baseUrl,
		model,
		apiKey: values['api-key'] ?? env.USER_TURN_PROBE_API_KEY,
		hfToken: values['hf-token'] ?? env.HF_TOKEN,
		nltkDataUrl: httpUrl('nltk-data-url', values['nltk-data-url']),
		syllapyUrl: httpUrl('syllapy-url', values['syllapy-url']),
		judgeBaseUrl: values['judge-base-url'],
		judgeModel,
		judgeApiKey: values['judge-api-key'] ?? values['api-key'] ?? env.USER_TURN_PROBE_API_KEY,
		judgeMode,
		dataset,
		limit: int('limit', values.limit, C.limit),
		seed: int('seed', values.seed, D.seed),
		temperatures:
			values.temperatures !== undefined
				? temperatureList(values.temperatures)
				: [...C.temperatures],
		perturbations: perturbations as Perturbation[],
		samples: int('samples', values.samples, D.samples, 1),
		template: values.template,
		eosToken: values['eos-token'],
		bosToken: values['bos-token'],
		out,
		concurrency: int('concurrency', values.concurrency, C.concurrency, 1),
		maxTokens: int('max-tokens', values['max-tokens'], D.max_tokens, 1),
		answerMaxTokens: answerLimit(values['answer-max-tokens']),
		thinking: values['no-thinking'] ? false : values.thinking ? true : undefined,
		userHeader: choice('user-header', values['user-header'], USER_HEADER_CUTS),
		reasoningEffort: choice('reasoning-effort', values['reasoning-effort'], REASONING_EFFORTS),
		truncateFraction,
		appendText: nonEmpty('append-text', values['append-text']) ?? D.append_text,
		taskPrompt,
		runId: values['run-id'],
		timeoutMs: int('timeout-ms', values['timeout-ms'], C.timeoutMs, 1),
		requestTimeoutMs: optionalInt('request-timeout-ms', values['request-timeout-ms']),
		maxReplyBytes: mebibytes('max-reply-mb', values['max-reply-mb']),
		overwrite: values.overwrite ?? false,
		acceptUncheckedModel: values['accept-unchecked-model'] ?? false
	};
}
