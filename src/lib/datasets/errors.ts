/** Dataset failures, split by who can fix them: the network/server, or the user's own file. */
import { AppError } from '../errors/appError.ts';

/** Loading a published dataset failed: an HTTP error, exhausted retries, or rows of the wrong shape. */
export class DatasetError extends AppError {
	/** The request that failed, when there was one. */
	readonly url: string | undefined;
	/** HTTP status; undefined for network failures and malformed rows. */
	readonly status: number | undefined;
	/**
	 * No HTTP answer at all (network error, blocked host, offline, or no answer in time): the host
	 * could not be reached, which the UI says by name and offers the Demo dataset for.
	 */
	readonly unreachable: boolean;
	constructor(
		message: string,
		opts: {
			url?: string;
			status?: number;
			cause?: unknown;
			unreachable?: boolean;
			code?: string;
			recovery?: string;
		} = {}
	) {
		// An unreachable host may answer later; a 4xx or a malformed row will not.
		super(message, {
			code: opts.code ?? 'dataset',
			recovery: opts.recovery,
			retryable: opts.unreachable ?? false,
			cause: opts.cause
		});
		this.name = 'DatasetError';
		this.url = opts.url;
		this.status = opts.status;
		this.unreachable = opts.unreachable ?? false;
	}
}

/** How many problems the message spells out; the rest stay in `problems`. */
const MESSAGE_PROBLEMS_MAX = 10;

/**
 * The user's file could not be imported. `problems` lists every issue found, each starting with
 * where it is ("line 7: …", "row 3 (CSV): …"), so the UI can show them all at once.
 */
export class DatasetImportError extends AppError {
	readonly filename: string;
	readonly problems: string[];
	constructor(filename: string, problems: string[]) {
		const shown = problems.slice(0, MESSAGE_PROBLEMS_MAX);
		const more = problems.length - shown.length;
		super(
			`Could not import ${filename}:\n` +
				shown.map((p) => `- ${p}`).join('\n') +
				(more > 0 ? `\n- … and ${more} more` : ''),
			{ code: 'dataset_import' }
		);
		this.name = 'DatasetImportError';
		this.filename = filename;
		this.problems = problems;
	}
}
