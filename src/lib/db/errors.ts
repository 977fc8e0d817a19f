/** Named storage errors, so views can tell "no such run" from "it already exists". */

export class RunNotFoundError extends Error {
	readonly run_id: string;
	constructor(runId: string) {
		super(`No run "${runId}" in this browser.`);
		this.name = 'RunNotFoundError';
		this.run_id = runId;
	}
}

/** Import refused: a run with this id is stored already (pass onConflict to replace or rename). */
export class RunExistsError extends Error {
	readonly run_id: string;
	constructor(runId: string) {
		super(`A run "${runId}" already exists. Import it as a copy, or replace the stored run.`);
		this.name = 'RunExistsError';
		this.run_id = runId;
	}
}
