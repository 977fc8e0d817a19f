/** A chat template that does not parse, raises, or renders something the probe cannot use. */
export class TemplateError extends Error {
	constructor(message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = 'TemplateError';
	}
}
