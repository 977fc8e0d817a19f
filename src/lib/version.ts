/**
 * The package's version, from package.json and nowhere else: Vite and esbuild inline it into the
 * app and the CLI bundle, tsx reads it when the CLI runs from source.
 */
import { version } from '../../package.json';

/** A manifest's app_version: which shell made the run ("web", "cli") and the package's version. */
export function appVersion(shell: 'web' | 'cli'): string {
	return `${shell}-${version}`;
}
