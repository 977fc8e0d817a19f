import { AppError } from '../errors/appError.ts';

/** A chat template that does not parse, raises, or renders something the probe cannot use. */
export class TemplateError extends AppError {
	constructor(message: string, options?: { cause?: unknown }) {
		super(message, { ...options, code: 'template' });
		this.name = 'TemplateError';
	}
}
