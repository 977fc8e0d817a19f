/**
 * Test data lives in ../shared/fixtures beside the clone (CI has it there too); it is never copied
 * into the repo. Tests read it through these helpers.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));

export function fixturePath(relative: string): string {
	return FIXTURES_DIR + relative;
}

export function readFixture(relative: string): string {
	return readFileSync(fixturePath(relative), 'utf8');
}

export function readJsonl<T>(relative: string): T[] {
	return readFixture(relative)
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as T);
}
