/** Renders pipeline events as progress on stderr: records, rate, ETA, tokens/s; errors in full. */
import { CLI_CHOICES, describeWithFix } from '../lib/setup/fixes.ts';
import type { ProbeEvent } from '../lib/probe/events.ts';

const REDRAW_MS = 250;

export function formatDuration(ms: number): string {
	const s = Math.round(ms / 1000);
	if (s < 60) return `${s}s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
	return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** "error: …" for a failure, then on its own line what to do (the flag to change, setup/fixes.ts). */
export function errorLines(err: unknown): string {
	const { message, recovery } = describeWithFix(err, CLI_CHOICES);
	return `error: ${message}\n${recovery ? `  → ${recovery}\n` : ''}`;
}

export class ProgressLine {
	readonly #out: { write(s: string): unknown; isTTY?: boolean };
	readonly #now: () => number;
	#last = 0;
	#line = '';
	/** Items a per-item error (e.g. a prompt too long for the context) left out of this run. */
	#skipped = new Set<string>();
	/** Records labelled by earlier runs of the command (resume): not part of this run's rate. */
	#before = 0;
	/** A fatal error ended the run: its end is a stop, not "done". */
	#failed = false;

	constructor(
		out: { write(s: string): unknown; isTTY?: boolean },
		now: () => number = () => performance.now()
	) {
		this.#out = out;
		this.#now = now;
	}

	render(e: ProbeEvent): void {
		switch (e.type) {
			case 'plan':
				this.#before = e.already_done;
				this.#print(
					`plan: ${e.items} items × ${e.conditions} conditions = ${e.total} records` +
						(e.already_done > 0 ? ` (${e.already_done} already in the file: resuming)` : '')
				);
				break;
			case 'loaded':
				this.#print(`ready: ${e.models.join(', ')}`);
				break;
			case 'phase':
				this.#print(`phase: ${e.phase}`);
				break;
			case 'retry':
				this.#print(
					`retrying (${e.retry} of ${e.of}) in ${formatDuration(e.delay_ms)}: ${e.message}`
				);
				break;
			case 'error':
				if (e.fatal) this.#failed = true;
				if (!e.fatal && e.item_id !== undefined) this.#skipped.add(e.item_id);
				this.#print(
					`${e.fatal ? 'error' : 'skipped'}: ${e.message}${e.recovery ? `\n  → ${e.recovery}` : ''}`
				);
				break;
			case 'progress': {
				// elapsed_ms counts from this run's start, so only this run's records go over it.
				const thisRun = Math.max(0, e.done - this.#before);
				const rate = e.elapsed_ms > 0 ? (thisRun / e.elapsed_ms) * 60_000 : 0;
				this.#line =
					`records ${e.done}/${e.total}` +
					(e.generated > e.done ? ` (generated ${e.generated})` : '') +
					` · ${rate.toFixed(1)}/min` +
					(e.eta_ms !== null ? ` · ETA ${formatDuration(e.eta_ms)}` : '') +
					(e.decode_tps !== null ? ` · ${e.decode_tps.toFixed(1)} tok/s` : '');
				this.#redraw(false);
				break;
			}
			case 'done':
				this.#redraw(true);
				this.#print(
					e.aborted || this.#failed
						? `stopped: ${e.records} records kept; run the same command to resume` +
								(this.#failed ? ' once the error above is dealt with' : '')
						: `done: ${e.records} records` +
								(this.#skipped.size > 0
									? `; ${this.#skipped.size} item${this.#skipped.size === 1 ? '' : 's'} skipped (see above)`
									: '')
				);
				break;
		}
	}

	finish(): void {
		if (this.#out.isTTY && this.#line) this.#out.write('\n');
	}

	#redraw(force: boolean): void {
		const t = this.#now();
		if (!force && t - this.#last < REDRAW_MS) return;
		this.#last = t;
		this.#out.write(this.#out.isTTY ? `\r\u001b[2K${this.#line}` : `${this.#line}\n`);
	}

	#print(text: string): void {
		this.#out.write(this.#out.isTTY ? `\r\u001b[2K${text}\n` : `${text}\n`);
	}
}
