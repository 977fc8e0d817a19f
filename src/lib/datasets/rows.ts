/**
 * Checks shared by the normalisers of published rows. Each throws on a row of the wrong shape,
 * because that means the published schema changed and silently skipping rows would bias the sample.
 */
import { DatasetError } from './errors.ts';

export type Row = Record<string, unknown>;

export function requireString(row: Row, field: string, where: string): string {
	const value = row[field];
	if (typeof value !== 'string') {
		throw new DatasetError(`${where}: '${field}' is missing or not a string`);
	}
	return value;
}

/** An object without its null members; a whole null struct is an empty object. */
export function dropNulls(entry: unknown, where: string): Record<string, unknown> {
	// A whole null struct is what parquet gives an instruction with no kwargs in some exports.
	if (entry === null || entry === undefined) return {};
	if (typeof entry !== 'object' || Array.isArray(entry)) {
		throw new DatasetError(`${where} is not an object`);
	}
	return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== null));
}
