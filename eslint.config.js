import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

/** Modules the pure probe core must never reach: it runs unchanged in Node, a worker and the page. */
const NOT_IN_CORE = [
	{ name: 'svelte', message: 'src/lib/probe is pure TypeScript: no Svelte.' },
	{ name: 'dexie', message: 'src/lib/probe talks to storage through RunStore only.' },
	{ name: 'chart.js', message: 'Charts belong to src/lib/stats/charts.ts and the views.' },
	{ name: '@mlc-ai/web-llm', message: 'Engines live in src/lib/engines.' }
];
const CORE_PATTERNS = [
	{ group: ['svelte/*', 'dexie/*', 'chart.js/*', '@mlc-ai/*'], message: 'Not in the pure core.' },
	{ group: ['**/db/*', '**/engines/*', '**/state/*', '**/views/*', '**/components/*', '$lib/*'] }
];
/** The Node CLI shares the core and the server engine, never the browser app's pieces. */
const NOT_IN_CLI = [
	{ name: 'svelte', message: 'src/cli runs in Node: no Svelte.' },
	{ name: 'dexie', message: 'src/cli stores runs as JSONL (jsonlStore.ts), not in IndexedDB.' },
	{ name: 'chart.js', message: "src/cli prints tables; charts are the web app's." },
	{ name: '@mlc-ai/web-llm', message: 'src/cli drives servers; web-llm needs a browser GPU.' }
];
const CLI_PATTERNS = [
	{ group: ['svelte/*', 'dexie/*', 'chart.js/*', '@mlc-ai/*'], message: 'Not in the Node CLI.' },
	{
		group: ['**/db/*', '**/state/*', '**/views/*', '**/components/*', '**/workers/*', '$lib/*'],
		message: 'The CLI reaches the app only through the core, the server engine and its own store.'
	}
];
const WEBLLM_ONLY_IN_WORKER = {
	name: '@mlc-ai/web-llm',
	message: 'Only the engine worker imports web-llm.',
	allowTypeImports: true
};
const DB_TYPES_ONLY = {
	group: ['**/db/*', '$lib/db/*', '!**/db/errors.ts', '!**/db/errors', '!$lib/db/errors'],
	allowTypeImports: true,
	message:
		'Only src/lib/db queries IndexedDB: add a method to a store there and get the store from app/services.ts.'
};
/**
 * Each engine folder is its own: what two engines share (the worker protocol, wire errors, queue
 * and request host) lives in engines/worker, which belongs to none of them and imports none.
 */
const ENGINE_FOLDERS = ['webgpu', 'cpu', 'server'];
/**
 * @param {string[]} folders
 * @param {string} message
 */
const notFrom = (folders, message) => ({
	group: folders.flatMap((f) => [`**/engines/${f}/*`, `../${f}/*`, `../../${f}/*`]),
	message
});
/** @type {import('eslint').Linter.Config[]} */
const ENGINE_BOUNDARIES = [
	{
		files: ['src/lib/engines/worker/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [{ name: '@mlc-ai/web-llm', message: 'engines/worker knows no engine library.' }],
					patterns: [notFrom(ENGINE_FOLDERS, 'engines/worker is shared: it imports no engine.')]
				}
			]
		}
	},
	...ENGINE_FOLDERS.map((kind) => ({
		files: [`src/lib/engines/${kind}/**/*.ts`],
		rules: {
			'no-restricted-imports': /** @type {import('eslint').Linter.RuleEntry} */ ([
				'error',
				{
					patterns: [
						notFrom(
							ENGINE_FOLDERS.filter((f) => f !== kind),
							'An engine does not reach into another: move what they share to engines/worker.'
						)
					]
				}
			])
		}
	}))
];
const DOM_GLOBALS = [
	'window',
	'document',
	'navigator',
	'indexedDB',
	'localStorage',
	'sessionStorage'
];

export default ts.config(
	{ ignores: ['dist/', 'bin/dist/', 'node_modules/', 'test-results/', 'bench-results.json'] },
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs['flat/recommended'],
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-non-null-assertion': 'error',
			'@typescript-eslint/consistent-type-imports': 'error',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' }
			]
		}
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: {
			parserOptions: { parser: ts.parser, svelteConfig, extraFileExtensions: ['.svelte'] }
		}
	},
	{
		// web-llm is a 2 MB library: only the module worker may import it (types are fine). Only
		// src/lib/db speaks Dexie: elsewhere its modules are imported for their types (and its error
		// classes), and the composition root (app/services.ts) wires the stores.
		files: ['src/**/*.ts', 'src/**/*.svelte'],
		ignores: ['src/workers/**', 'src/lib/engines/webgpu/worker/**'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{ paths: [WEBLLM_ONLY_IN_WORKER], patterns: [DB_TYPES_ONLY] }
			]
		}
	},
	{
		files: ['src/lib/db/**/*.ts', 'src/lib/app/services.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': ['error', { paths: [WEBLLM_ONLY_IN_WORKER] }]
		}
	},
	...ENGINE_BOUNDARIES,
	{
		files: ['src/lib/probe/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { paths: NOT_IN_CORE, patterns: CORE_PATTERNS }],
			'no-restricted-globals': ['error', ...DOM_GLOBALS]
		}
	},
	{
		// The pipeline orchestrates; records, failures, progress and engine calls live beside it.
		files: ['src/lib/probe/pipeline.ts'],
		rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] }
	},
	{
		files: ['src/cli/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { paths: NOT_IN_CLI, patterns: CLI_PATTERNS }],
			'no-restricted-globals': ['error', ...DOM_GLOBALS]
		}
	}
);
