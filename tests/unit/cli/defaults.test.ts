/**
 * The CLI's defaults are the app's (RUN_DEFAULTS) but for the few it names (CLI_DEFAULTS), and
 * `run --help` says them: every "(default V)" the help states is what a run gets without the
 * flag, so the help and the defaults cannot drift apart.
 */
import { describe, expect, it } from 'vitest';
import { CLI_DEFAULTS, parseRunArgs, RUN_USAGE } from '../../../src/cli/args.ts';
import { cliRunValues } from '../../../src/cli/startPorts.ts';
import { RUN_DEFAULTS } from '../../../src/lib/probe/runValues.ts';
import { templateValues } from '../../../src/lib/probe/templateValues.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { gsmItem } from '../../helpers/factories.ts';

/** The required flags only (a judge model, so --judge-mode can be any). */
const BASE = [
	...['--base-url', 'http://x', '--model', 'm', '--judge-model', 'j'],
	...['--dataset', 'demo', '--out', 'o.jsonl']
];

/** Each flag whose first help line states its default, with the value stated. */
function statedDefaults(): [flag: string, value: string][] {
	const stated: [string, string][] = [];
	for (const line of RUN_USAGE.split('\n')) {
		const m = /^ {2}(--[a-z-]+) [A-Z]\S* .*\(default (?!with )("[^"]*"|[^\s;)]+)/.exec(line);
		if (!m) continue;
		const value = m[2].startsWith('"') ? m[2].slice(1, -1) : m[2].replace(/[:,]$/, '');
		stated.push([m[1], value]);
	}
	return stated;
}

describe('the CLI’s defaults', () => {
	it('every default --help states is what a run gets without the flag', () => {
		const stated = statedDefaults();
		// limit, seed, temperatures, perturbations, samples, judge-mode, concurrency, max-tokens,
		// truncate-fraction, append-text, task-prompt, timeout-ms.
		expect(stated.map(([flag]) => flag).sort()).toEqual(
			[
				'--append-text',
				'--concurrency',
				'--judge-mode',
				'--limit',
				'--max-tokens',
				'--perturbations',
				'--samples',
				'--seed',
				'--task-prompt',
				'--temperatures',
				'--timeout-ms',
				'--truncate-fraction'
			].sort()
		);
		const bare = parseRunArgs(BASE);
		for (const [flag, value] of stated)
			expect(parseRunArgs([...BASE, flag, value]), `${flag} ${value}`).toEqual(bare);
	});

	it('a bare command runs with the app’s defaults but for the ones CLI_DEFAULTS names', () => {
		const template = fixtureTemplate();
		const values = cliRunValues(parseRunArgs(BASE), {
			run_id: 'r',
			template,
			items: [gsmItem(0)]
		});
		const fromTemplate = new Set(Object.keys(templateValues(template)));
		const own: Record<string, unknown> = CLI_DEFAULTS;
		const checked: string[] = [];
		for (const [key, value] of Object.entries(RUN_DEFAULTS)) {
			if (fromTemplate.has(key)) continue;
			expect(values[key as keyof typeof values], key).toEqual(key in own ? own[key] : value);
			checked.push(key);
		}
		expect(checked).toContain('max_tokens');
		expect(checked).toContain('append_text');
		// The CLI's own differ from the app's, or they would not be its own.
		for (const key of ['limit', 'temperatures'] as const)
			expect(CLI_DEFAULTS[key]).not.toEqual(RUN_DEFAULTS[key]);
		const opts = parseRunArgs(BASE);
		expect(opts.concurrency).toBe(CLI_DEFAULTS.concurrency);
		expect(opts.timeoutMs).toBe(CLI_DEFAULTS.timeoutMs);
	});

	it('--help names each of the CLI’s own defaults as differing from the app’s', () => {
		const note = RUN_USAGE.slice(RUN_USAGE.indexOf("Defaults are the app's")).replace(/\s+/g, ' ');
		expect(note).toContain(`--limit ${CLI_DEFAULTS.limit}`);
		expect(note).toContain(`--temperatures ${CLI_DEFAULTS.temperatures.join(',')}`);
		expect(note).toContain(`--concurrency ${CLI_DEFAULTS.concurrency}`);
		expect(note).toContain(`--timeout-ms ${CLI_DEFAULTS.timeoutMs}`);
	});
});
