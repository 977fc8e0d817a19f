/**
 * The folder-level import graph of src: which folder imports which, and the cycles in it. A folder
 * is a top-level folder of src/lib (`lib/probe`, `lib/state`…) or of src (`cli`, `workers`, `views`,
 * `components`); a file at the top of src (App.svelte, main.ts) is the folder `src`. Type-only
 * imports count too: a type shared both ways means a concern with two owners.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

/** Source text by repo-relative path (`src/lib/probe/pipeline.ts`). */
export type SourceFiles = ReadonlyMap<string, string>;

/** Every .ts and .svelte file under `dir`, by its path relative to `root`. */
export function readSources(root: string, dir = 'src'): Map<string, string> {
	const out = new Map<string, string>();
	const walk = (abs: string) => {
		for (const entry of readdirSync(abs, { withFileTypes: true })) {
			const path = join(abs, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (/\.(ts|svelte)$/.test(entry.name)) {
				out.set(relative(root, path).split('\\').join('/'), readFileSync(path, 'utf8'));
			}
		}
	};
	walk(join(root, dir));
	return out;
}

/** The module specifiers a file imports (static, dynamic and `export … from`). */
export function importsOf(path: string, text: string): string[] {
	const code = path.endsWith('.svelte') ? svelteScripts(text) : text;
	const info = ts.preProcessFile(code, true, true);
	return info.importedFiles.map((f) => f.fileName);
}

function svelteScripts(text: string): string {
	return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** The folder a repo-relative path belongs to, or null outside src. */
export function folderOf(path: string): string | null {
	const parts = path.split('/');
	if (parts[0] !== 'src') return null;
	if (parts[1] === 'lib') return parts.length > 3 ? `lib/${parts[2]}` : 'lib';
	return parts.length > 2 ? parts[1] : 'src';
}

/** Resolve a specifier to a repo-relative path; null for packages. `$lib` is src/lib. */
export function resolveImport(from: string, spec: string): string | null {
	if (spec.startsWith('$lib/')) return posix.normalize(`src/lib/${spec.slice(5)}`);
	if (!spec.startsWith('.')) return null;
	return posix.normalize(posix.join(dirname(from), spec));
}

/** folder → folder → the file imports that make the edge (`from -> to`), for the message. */
export type FolderGraph = Map<string, Map<string, string[]>>;

export function folderGraph(files: SourceFiles): FolderGraph {
	const graph: FolderGraph = new Map();
	for (const [path, text] of files) {
		const from = folderOf(path);
		if (!from) continue;
		if (!graph.has(from)) graph.set(from, new Map());
		for (const spec of importsOf(path, text)) {
			const target = resolveImport(path, spec);
			const to = target && folderOf(target);
			if (!to || to === from) continue;
			const edges = graph.get(from) as Map<string, string[]>;
			edges.set(to, [...(edges.get(to) ?? []), `${path} -> ${spec}`]);
		}
	}
	return graph;
}

/**
 * The strongly connected groups of more than one folder (Tarjan), each sorted, with the imports
 * that tie it together. Empty when folders depend one way only.
 */
export function folderCycles(graph: FolderGraph): { folders: string[]; imports: string[] }[] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const groups: string[][] = [];
	let next = 0;
	const visit = (v: string) => {
		index.set(v, next);
		low.set(v, next);
		next++;
		stack.push(v);
		onStack.add(v);
		for (const w of graph.get(v)?.keys() ?? []) {
			if (!index.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
			} else if (onStack.has(w)) {
				low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
			}
		}
		if (low.get(v) === index.get(v)) {
			const group: string[] = [];
			let w: string;
			do {
				w = stack.pop() as string;
				onStack.delete(w);
				group.push(w);
			} while (w !== v);
			if (group.length > 1) groups.push(group.sort());
		}
	};
	for (const v of graph.keys()) if (!index.has(v)) visit(v);
	return groups.map((folders) => ({
		folders,
		imports: folders.flatMap((a) =>
			folders.flatMap((b) => graph.get(a)?.get(b) ?? []).map((edge) => edge)
		)
	}));
}

/**
 * Every file `starts` reach through relative imports, static or dynamic (type-only ones too),
 * among `files`; a specifier without an extension tries `.ts`, `.svelte.ts` and `/index.ts`.
 */
export function reachedFrom(files: SourceFiles, starts: readonly string[]): Set<string> {
	const seen = new Set<string>();
	const pending = [...starts];
	while (pending.length > 0) {
		const path = pending.pop() as string;
		if (seen.has(path)) continue;
		const text = files.get(path);
		if (text === undefined) continue;
		seen.add(path);
		for (const spec of importsOf(path, text)) {
			const target = resolveImport(path, spec);
			if (!target) continue;
			const found = [target, `${target}.ts`, `${target}.svelte.ts`, `${target}/index.ts`].find(
				(p) => files.has(p)
			);
			if (found) pending.push(found);
		}
	}
	return seen;
}
