/**
 * Reading an instruction's kwargs. IFEval stores them as loose JSON; a checker built from bad
 * kwargs would silently score everything false, so a missing or mistyped argument throws instead.
 */
import { AppError } from '../../../errors/appError.ts';

export type Kwargs = Readonly<Record<string, unknown>>;

/** The two comparisons IFEval uses for counts. */
export const RELATIONS = ['less than', 'at least'] as const;
export type Relation = (typeof RELATIONS)[number];

/** A kwarg is missing, has the wrong type, or names an unknown relation. */
export class IfevalArgumentError extends AppError {
	constructor(message: string) {
		super(message, { code: 'ifeval_argument' });
		this.name = 'IfevalArgumentError';
	}
}

/** @throws IfevalArgumentError unless `kwargs[key]` is a non-negative integer. */
export function intArg(kwargs: Kwargs, key: string): number {
	const value = kwargs[key];
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
		throw new IfevalArgumentError(`${key} must be a non-negative integer, got ${String(value)}`);
	}
	return value;
}

/** @throws IfevalArgumentError unless `kwargs[key]` is a non-empty string. */
export function stringArg(kwargs: Kwargs, key: string): string {
	const value = kwargs[key];
	if (typeof value !== 'string' || value.trim() === '') {
		throw new IfevalArgumentError(`${key} must be a non-empty string, got ${String(value)}`);
	}
	return value;
}

/** @throws IfevalArgumentError unless `kwargs[key]` is a non-empty list of strings. */
export function stringListArg(kwargs: Kwargs, key: string): string[] {
	const value = kwargs[key];
	if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) {
		throw new IfevalArgumentError(`${key} must be a non-empty list of strings`);
	}
	return value as string[];
}

/** @throws IfevalArgumentError unless `kwargs[key]` is "less than" or "at least". */
export function relationArg(kwargs: Kwargs, key: string): Relation {
	const value = kwargs[key];
	if (!RELATIONS.includes(value as Relation)) {
		throw new IfevalArgumentError(`${key} must be one of ${RELATIONS.join(', ')}`);
	}
	return value as Relation;
}

/** "less than" is strict (<), "at least" is inclusive (>=), as in the reference. */
export function compare(count: number, relation: Relation, threshold: number): boolean {
	return relation === 'less than' ? count < threshold : count >= threshold;
}
