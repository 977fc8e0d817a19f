import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { VitePWA } from 'vite-plugin-pwa';
import { shippedTemplates } from './vite.shippedTemplates.ts';
import { RUNTIME_CACHED_GLOBS } from './src/lib/sw/runtimeCaches.ts';
import { wllamaAssets } from './vite.wllamaAssets.ts';
import { precacheShell } from './vite.precacheShell.ts';

// BASE_PATH lets the same build serve from a GitHub Pages sub-path (/user-turn-probe/) or a root.
const base = process.env.BASE_PATH ?? './';

// The first screen (home) and the part of the app context it mounts with (App.svelte's PARTS).
const shell = precacheShell(['src/views/home/HomeView.svelte', 'src/lib/app/environmentPart.ts']);

export default defineConfig({
	base,
	plugins: [
		svelte(),
		// The catalog's verified chat templates, read from npm packages at build time (only the template).
		shippedTemplates(),
		// wllama's compatibility build from our origin, never its CDN (the CPU worker's graph).
		wllamaAssets(),
		// The one service worker (src/sw.ts): offline after the first visit (the app shell precached,
		// every other chunk and the engines' workers cached on first use; models live in the engines'
		// own storage, runs in IndexedDB) and cross-origin isolation on hosts that cannot send headers.
		shell.plugin,
		VitePWA({
			strategies: 'injectManifest',
			srcDir: 'src',
			filename: 'sw.ts',
			registerType: 'autoUpdate',
			injectRegister: 'script',
			manifest: {
				name: 'User-Turn Probe',
				short_name: 'UT Probe',
				description: 'Run the user-turn generation probe on your own GPU.',
				theme_color: '#1f3a5f',
				background_color: '#fafafa',
				icons: [{ src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml' }]
			},
			injectManifest: {
				globPatterns: ['**/*.{js,css,html,svg,json,webmanifest}'],
				// web-llm (2 MB gzipped) and wllama (its worker and 8 MB wasm) are not precached: a visitor
				// who only opens shared runs never downloads them (src/lib/sw/runtimeCaches.ts).
				globIgnores: RUNTIME_CACHED_GLOBS,
				// Only the shell: workbox installs one file after another, and 130 took 22 s on a slow
				// network (issue 39). The rest is cached on first use (vite.precacheShell.ts).
				manifestTransforms: [shell.transform]
			}
		})
	],
	resolve: {
		alias: {
			$lib: fileURLToPath(new URL('./src/lib', import.meta.url)),
			$static: fileURLToPath(new URL('./static', import.meta.url))
		}
	},
	worker: { format: 'es', plugins: () => [wllamaAssets()] },
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
