/**
 * The CPU engine's load watchdog. In Firefox, creating or first messaging the worker wllama nests
 * for llama.cpp sometimes never returns, and once the CPU worker's own thread stopped for minutes:
 * the load then waits forever and the run sits at 0 records. A load streams progress while it
 * downloads, so a load that says nothing for SILENCE_LIMIT_MS is taken as hung.
 */
import { AppError } from '../../errors/appError.ts';
import { EngineError } from '../../probe/engine.ts';

/**
 * How long a load may go without a progress message. Downloads report every chunk; the quiet
 * stretch is after the last byte (starting llama.cpp's worker, compiling its wasm, reading the
 * GGUF into its memory): 1.4 s for the 25.6 MB test model on a shared 2-core machine
 * (tests/build/cpuSmoke.ts). Even if it grew in proportion to size, the catalog's largest model
 * (about 1 GB) would take about a minute there; two minutes leaves a weaker laptop room, and keeps
 * a hang plus the retry inside the 4 minutes the browser tests give a CPU run.
 */
export const SILENCE_LIMIT_MS = 120_000;

/** The CPU worker stayed silent through a load and through its one restart. */
export class CpuWorkerSilentError extends EngineError {
	constructor(seconds: number) {
		super(
			'timeout',
			`The CPU engine stopped answering while loading the model (silent for ${seconds} s, ` +
				'twice, with a fresh worker the second time).',
			'Reload the page and start again; if it keeps happening in this browser, use Chromium ' +
				'or a server engine.',
			true
		);
		this.name = 'CpuWorkerSilentError';
	}
}

/** One attempt went silent; the client restarts the worker or gives CpuWorkerSilentError. */
export class SilenceError extends AppError {
	constructor() {
		super('The worker went silent.', { code: 'timeout' });
		this.name = 'SilenceError';
	}
}

/**
 * Run `start` with a timer that `alive()` re-arms; rejects with SilenceError when it runs out.
 * `start` receives `alive` to call on every sign of life (a progress message).
 */
export function watched<T>(start: (alive: () => void) => Promise<T>, limitMs: number): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const alive = () => {
			clearTimeout(timer);
			timer = setTimeout(() => reject(new SilenceError()), limitMs);
		};
		alive();
		start(alive).then(
			(value) => {
				clearTimeout(timer);
				resolve(value);
			},
			(err: unknown) => {
				clearTimeout(timer);
				reject(err);
			}
		);
	});
}
