/**
 * Starting a run, in one order for every shell: take the run's lock, check the server, read the
 * chat template, load the dataset, then prepare and store the run. The steps are ports the shell
 * passes (the CLI's lock file and JSONL store, the tab's one run and IndexedDB); the order, and
 * which step a failure stops at, are written here once, so the CLI and the app check things in
 * the same order and a refused start has touched nothing a later step would.
 *
 * An async generator of typed events, as runProbe is: the set-up view shows the step, the CLI
 * says it on stderr.
 */

/** The steps in the order every shell takes them. */
export const START_STEPS = ['lock', 'server', 'template', 'dataset', 'store'] as const;

export type StartStep = (typeof START_STEPS)[number];

export type StartEvent =
	/** A step begins. */
	| { type: 'step'; step: StartStep }
	/** A step this start has no port for (no server to check for an engine on this device). */
	| { type: 'skipped'; step: StartStep }
	/** A step failed: the start stops here, and the port's own error is thrown after this event. */
	| { type: 'failed'; step: StartStep; error: unknown };

/**
 * What a shell plugs into the steps. Each port throws its own typed error (RunLockedError,
 * RunActiveError, EngineError, TemplateError, DatasetError…), which the start passes on unchanged.
 */
export interface StartPorts<Server, Template, Data, Stored> {
	/** Nobody else writes this run: the CLI's lock on --out, the tab's one active run. */
	lock(): Promise<void> | void;
	/** The server answers and serves the models; absent for an engine on this device. */
	server?(): Promise<Server>;
	/** The generator's chat template, read and checked. */
	template(): Promise<Template>;
	/** The dataset's items, as loaded. */
	dataset(): Promise<Data>;
	/** The run prepared from what the steps got and stored (or checked against what is stored). */
	store(got: StartGot<Server, Template, Data>): Promise<Stored>;
}

export interface StartGot<Server, Template, Data> {
	/** Undefined when there was no server to check. */
	server: Server | undefined;
	template: Template;
	data: Data;
}

export type Started<Server, Template, Data, Stored> = StartGot<Server, Template, Data> & {
	stored: Stored;
};

/**
 * The start's steps, one after another; stops at the first that fails. A stop (AbortSignal) is
 * the ports' to honour: each passes its signal to what it waits on, and fails with AbortError.
 * @returns what every step got.
 * @throws the failing port's own error, after a `failed` event naming its step.
 */
export async function* startRun<Server, Template, Data, Stored>(
	ports: StartPorts<Server, Template, Data, Stored>
): AsyncGenerator<StartEvent, Started<Server, Template, Data, Stored>, undefined> {
	let current: StartStep = 'lock';
	try {
		const step = (s: StartStep): StartEvent => {
			current = s;
			return { type: 'step', step: s };
		};
		yield step('lock');
		await ports.lock();
		let server: Server | undefined;
		if (ports.server) {
			yield step('server');
			server = await ports.server();
		} else {
			yield { type: 'skipped', step: 'server' };
		}
		yield step('template');
		const template = await ports.template();
		yield step('dataset');
		const data = await ports.dataset();
		yield step('store');
		const got = { server, template, data };
		return { ...got, stored: await ports.store(got) };
	} catch (error) {
		yield { type: 'failed', step: current, error };
		throw error;
	}
}

/** Runs the start to its end, handing each event to `on`: for a shell with nothing else to do. */
export async function driveStart<Server, Template, Data, Stored>(
	ports: StartPorts<Server, Template, Data, Stored>,
	on: (event: StartEvent) => void
): Promise<Started<Server, Template, Data, Stored>> {
	const steps = startRun(ports);
	for (;;) {
		const next = await steps.next();
		if (next.done) return next.value;
		on(next.value);
	}
}
