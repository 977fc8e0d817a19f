/** A study's one shareable file: its runs' whole-run files behind one first line (studyFile.ts). */
import type { RunBundle } from '../probe/exchange.ts';
import { bundleToRunFile } from '../probe/runFile.ts';
import { STUDY_FILE_SUFFIX, studyToFile } from '../probe/studyFile.ts';

/**
 * The file's name and text. Secrets never leave: the exchange format strips them.
 * @throws RunNotFoundError if a run was deleted meanwhile.
 */
export async function studyFileOf(
	store: { exportRun(runId: string): Promise<RunBundle> },
	runIds: readonly string[]
): Promise<{ name: string; text: string; type: string }> {
	const files: string[] = [];
	for (const id of runIds) files.push(bundleToRunFile(await store.exportRun(id)));
	return {
		name: `study-${runIds.length}-runs${STUDY_FILE_SUFFIX}`,
		text: studyToFile(files),
		type: 'application/x-ndjson'
	};
}
