/// <reference types="svelte" />
/// <reference types="vite/client" />

declare module 'virtual:shipped-templates' {
	// What the build plugin reads out of each package.
	import type { ShippedEntry } from './lib/templates/entry.ts';
	const templates: ShippedEntry[];
	export default templates;
}
