/** Node entry: `user-turn-probe run | summarize | agreement`. No Svelte, Dexie or DOM in here. */
import { parseRunArgs, RUN_USAGE, UsageError } from './args.ts';
import { agreementText, readRun, summarizeText } from './report.ts';
import { runCommand } from './run.ts';

const USAGE = `user-turn-probe: the user-turn generation probe against OpenAI-compatible servers

  user-turn-probe run ...            generate, label and store records (see: run --help)
  user-turn-probe summarize FILE     accuracy and follow-up rates with 95% CIs per condition
  user-turn-probe agreement FILE     Cohen's κ between the labelers present (rules, judge, humans)
`;

export async function main(
	argv: string[],
	env: Record<string, string | undefined> = process.env
): Promise<number> {
	const [command, ...rest] = argv;
	try {
		if (command === 'run') {
			if (rest.includes('--help')) {
				process.stdout.write(RUN_USAGE + '\n');
				return 0;
			}
			const ctrl = new AbortController();
			let interrupts = 0;
			const onSigint = () => {
				// First Ctrl-C: stop cleanly (whole lines only, resumable). Second: leave now.
				if (++interrupts > 1) process.exit(130);
				process.stderr.write(
					'\nstopping after the requests in flight… (Ctrl-C again to quit now)\n'
				);
				ctrl.abort();
			};
			process.on('SIGINT', onSigint);
			try {
				return await runCommand(parseRunArgs(rest, env), {
					stderr: process.stderr,
					signal: ctrl.signal
				});
			} finally {
				process.off('SIGINT', onSigint);
			}
		}
		if (command === 'summarize' || command === 'agreement') {
			const file = rest[0];
			if (!file) throw new UsageError(`${command} needs a records file (.jsonl)`);
			const { records, annotations } = readRun(file);
			process.stdout.write(
				command === 'summarize' ? summarizeText(records) : agreementText(records, annotations)
			);
			return 0;
		}
		process.stdout.write(USAGE);
		return command === undefined || command === '--help' ? 0 : 2;
	} catch (err) {
		const e = err instanceof Error ? err : new Error(String(err));
		process.stderr.write(`${e.name === 'UsageError' ? 'usage error' : 'error'}: ${e.message}\n`);
		const recovery = (e as { recovery?: string }).recovery;
		if (recovery) process.stderr.write(`  → ${recovery}\n`);
		if (e.name === 'UsageError') process.stderr.write(`\n${RUN_USAGE}\n`);
		return 2;
	}
}
