/** Named storage errors, so views can tell "no such run" from "it already exists". */
import { AppError } from '../errors/appError.ts';

export class RunNotFoundError extends AppError {
	readonly run_id: string;
	constructor(runId: string) {
		super(`No run "${runId}" in this browser.`, { code: 'run_not_found' });
		this.name = 'RunNotFoundError';
		this.run_id = runId;
	}
}

/** Import refused: a run with this id is stored already (pass onConflict to replace or rename). */
export class RunExistsError extends AppError {
	readonly run_id: string;
	constructor(runId: string) {
		super(`A run "${runId}" already exists. Import it as a copy, or replace the stored run.`, {
			code: 'run_exists'
		});
		this.name = 'RunExistsError';
		this.run_id = runId;
	}
}
