/**
 * Test data lives in ../shared/fixtures beside the clone (CI has it there too); it is never copied
 * into the repo. Tests read it through these helpers.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChatTemplate } from '../../src/lib/probe/template.ts';

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

interface TemplateIndexEntry {
	file: string;
	bos_token: string | null;
	eos_token: string | null;
	extra_stop_tokens?: string[];
}

export function fixtureTemplate(modelId = 'Qwen/Qwen2.5-0.5B-Instruct'): ChatTemplate {
	const index = JSON.parse(readFixture('templates/index.json')) as Record<
		string,
		TemplateIndexEntry
	>;
	const entry = index[modelId];
	if (!entry) throw new Error(`no fixture template for ${modelId}`);
	return {
		source: readFixture(`templates/${entry.file}`),
		bos_token: entry.bos_token,
		eos_token: entry.eos_token,
		extra_stop_tokens: entry.extra_stop_tokens ?? [],
		repo: modelId
	};
}

/** The fixture template as the app holds it: with its sha256, which a stored run records. */
export function hashedFixtureTemplate(modelId?: string): ChatTemplate & { sha256: string } {
	const t = fixtureTemplate(modelId);
	return { ...t, sha256: createHash('sha256').update(t.source).digest('hex') };
}
