/** The columns of DataTable.svelte: each says its header once, and how its cells show. */
import type { Snippet } from 'svelte';

export interface Column<T> {
	/** The header, and the name above the cell on a phone's card. */
	head: string;
	/** The card's name when the header alone is ambiguous ("95% CI"); null shows none. */
	label?: string | null;
	/** The header is for screen readers only (a checkbox or actions column); no card name. */
	hideHead?: boolean;
	/** Right-aligned tabular numbers. */
	num?: boolean;
	/** Classes on the cell: `wide` takes a card's whole width; a function marks one row's state. */
	class?: string | ((row: T) => string);
	/** Negative: this cell comes first on a phone's card (the condition, then its rate). */
	cardOrder?: number;
	/**
	 * A number few readers need (counts that should be zero): not a column of its own but a line in
	 * the row's "More" fold, so the table keeps every column in sight on a laptop and stays short on
	 * a phone, and columns added later do not push the rest off the screen.
	 */
	secondary?: boolean;
	/** The cell names its row for screen readers (`<th scope="row">`). */
	rowHeader?: boolean;
	testid?: string;
	/** Plain text; `cell` instead when the cell holds links, buttons or two lines. */
	value?: (row: T) => string | number;
	cell?: Snippet<[T]>;
}
