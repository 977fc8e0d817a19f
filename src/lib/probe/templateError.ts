import { AppError } from '../errors/appError.ts';

/** A chat template that does not parse, raises, or renders something the probe cannot use. */
export class TemplateError extends AppError {
	/** No template was found at all (not one that failed): the user must name one (setup/fixes.ts). */
	readonly missing: boolean;
	constructor(message: string, options?: { cause?: unknown; missing?: boolean }) {
		super(message, { cause: options?.cause, code: 'template' });
		this.name = 'TemplateError';
		this.missing = options?.missing ?? false;
	}
}
