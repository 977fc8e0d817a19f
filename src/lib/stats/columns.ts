/**
 * Rows as columns: each field's distinct values plus one index per row. A run's fields repeat a
 * handful of values (labels, temperatures, perturbations) across thousands of records, so columns
 * are several times smaller than the rows, and their indexes are typed arrays a worker message can
 * transfer instead of copying. One encoding for every user: the packed facts (db/facts.ts) and the
 * paired-effects job (results/pairedJob.ts).
 */

/** One field's column: its distinct values, in first-seen order, and each row's index into them. */
export interface Column<V = unknown> {
	values: V[];
	index: Uint32Array;
}

export type Columns<F extends PropertyKey> = Record<F, Column>;

/**
 * The rows' columns for these fields. `valueOf` reads a row's value (by default the field itself):
 * a JSON pack uses it to keep an absent value apart from null.
 */
export function columnsOf<R, F extends keyof R>(
	rows: readonly R[],
	fields: readonly F[],
	valueOf: (row: R, field: F) => unknown = (row, field) => row[field]
): Columns<F> {
	const n = rows.length;
	const columns = {} as Columns<F>;
	for (const field of fields) {
		const values: unknown[] = [];
		const seen = new Map<unknown, number>();
		const index = new Uint32Array(n);
		for (let i = 0; i < n; i++) {
			const v = valueOf(rows[i], field);
			let k = seen.get(v);
			if (k === undefined) {
				k = values.push(v) - 1;
				seen.set(v, k);
			}
			index[i] = k;
		}
		columns[field] = { values, index };
	}
	return columns;
}

/** Row i's value in a column (its index array may be a typed array or, from JSON, plain numbers). */
export function valueAt(
	column: { values: unknown[]; index: ArrayLike<number> },
	i: number
): unknown {
	return column.values[column.index[i]];
}
