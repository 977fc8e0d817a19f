/**
 * Hash routes, so deep links work on GitHub Pages (no server rewrites): #/ (the first screen),
 * #/setup, #/run/ID,
 * #/results/ID, #/runs, #/playground, #/annotate/ID, #/open?url=… (a shared run or study by link),
 * #/study?runs=ID,ID,… (several runs side by side), #/see (see what the model sees: shipped
 * templates, no model), and the class link #/?examples=<index.json>&models=<mirror base> (either
 * alone).
 */
export const VIEWS = [
	'home',
	'setup',
	'run',
	'results',
	'runs',
	'playground',
	'annotate',
	'open',
	'study',
	'see'
] as const;
export type ViewName = (typeof VIEWS)[number];

export interface Route {
	view: ViewName;
	/** Run id for run, results and annotate. */
	id?: string;
	/** Query after "?", e.g. #/results/ID?compare=OTHER. Plain data: a route is replaced, never edited. */
	params: Readonly<Record<string, string>>;
}

/**
 * Any hash at all gives a route: an empty or unknown view is the first screen, and a malformed
 * link (bad %-escapes) is set-up, so app start never throws.
 */
export function parseHash(hash: string): Route {
	const body = hash.replace(/^#\/?/, '');
	const at = body.indexOf('?');
	const [path, query] = at < 0 ? [body, ''] : [body.slice(0, at), body.slice(at + 1)];
	const parts = path.split('/').map(decode);
	if (parts.includes(undefined)) return { view: 'setup', params: {} };
	const [view, id] = parts;
	// URLSearchParams never throws: a bad escape in the query stays as typed.
	const params: Record<string, string> = Object.fromEntries(new URLSearchParams(query).entries());
	// A link pasted after "url=" unencoded keeps its own "?", "&" and "+": it is the rest, as is.
	if (query.startsWith('url=')) params.url = decode(query.slice(4)) ?? query.slice(4);
	// A class link (#/?examples=…&models=…, either alone) is the same: each address is all that
	// follows its name, up to the other one's.
	for (const [name, other] of [
		['examples', 'models'],
		['models', 'examples']
	] as const) {
		if (!query.startsWith(`${name}=`)) continue;
		const rest = query.slice(name.length + 1);
		const cut = rest.indexOf(`&${other}=`);
		const own = cut < 0 ? rest : rest.slice(0, cut);
		params[name] = decode(own) ?? own;
		if (cut >= 0) {
			const tail = rest.slice(cut + other.length + 2);
			params[other] = decode(tail) ?? tail;
		}
	}
	if ((VIEWS as readonly (string | undefined)[]).includes(view))
		return { view: view as ViewName, id: id || undefined, params };
	return { view: 'home', params };
}

/** decodeURIComponent, or undefined for text that is not valid percent-encoding. */
function decode(part: string): string | undefined {
	try {
		return decodeURIComponent(part);
	} catch {
		return undefined;
	}
}

export function href(view: ViewName, id?: string, params?: Record<string, string>): string {
	const query = params ? `?${new URLSearchParams(params).toString()}` : '';
	return `#/${view}${id ? `/${encodeURIComponent(id)}` : ''}${query}`;
}

const idList = (ids: readonly string[]) => ids.map(encodeURIComponent).join(',');
const idsOf = (param: string | undefined) =>
	(param ?? '').split(',').map((s) => decode(s.trim()) ?? '');

/** How a study opened by link or imported was stored: which runs were here, which were added. */
export interface StudyArrival {
	already: string[];
	added: string[];
	copies: { from: string; to: string }[];
}

/**
 * A study's route: its run ids, each %-escaped (so an id may hold a comma), comma-separated; with
 * `arrival`, what storing it did, for the view to say.
 */
export function studyHref(runIds: readonly string[], arrival?: StudyArrival): string {
	const params: Record<string, string> = { runs: idList(runIds) };
	if (arrival) {
		if (arrival.already.length > 0) params.here = idList(arrival.already);
		if (arrival.added.length > 0) params.added = idList(arrival.added);
		if (arrival.copies.length > 0)
			params.copies = idList(arrival.copies.flatMap((c) => [c.from, c.to]));
	}
	return href('study', undefined, params);
}

/** The run ids of a study route's `runs` parameter, in order; blanks, repeats and bad escapes dropped. */
export function studyRunIds(params: Readonly<Record<string, string>>): string[] {
	return [...new Set(idsOf(params.runs).filter(Boolean))];
}

/** What storing the study did, when its route says (a study opened by link); else undefined. */
export function studyArrival(params: Readonly<Record<string, string>>): StudyArrival | undefined {
	if (params.here === undefined && params.added === undefined && params.copies === undefined)
		return undefined;
	const pairs = idsOf(params.copies);
	const copies: StudyArrival['copies'] = [];
	for (let i = 0; i + 1 < pairs.length; i += 2)
		if (pairs[i] && pairs[i + 1]) copies.push({ from: pairs[i], to: pairs[i + 1] });
	return {
		already: idsOf(params.here).filter(Boolean),
		added: idsOf(params.added).filter(Boolean),
		copies
	};
}
