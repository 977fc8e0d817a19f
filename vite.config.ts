import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

// BASE_PATH lets the same build serve from a GitHub Pages sub-path (/user-turn-probe/) or a root.
const base = process.env.BASE_PATH ?? './';

export default defineConfig({
	base,
	plugins: [svelte()],
	resolve: {
		alias: {
			$lib: fileURLToPath(new URL('./src/lib', import.meta.url)),
			$static: fileURLToPath(new URL('./static', import.meta.url))
		}
	},
	worker: { format: 'es' },
	build: { target: 'es2022', sourcemap: false, reportCompressedSize: true },
	test: {
		projects: [
			{
				extends: true,
				test: {
					name: 'node',
					include: ['tests/unit/**/*.test.ts'],
					environment: 'node'
				}
			},
			{
				extends: true,
				test: {
					name: 'dom',
					include: ['tests/components/**/*.test.ts'],
					environment: 'jsdom'
				},
				resolve: { conditions: ['browser'] }
			}
		]
	}
});
