import { describe, expect, it } from 'vitest';
import type { AnnotationBackend } from '../../../src/lib/annotate/backend.ts';
import type { Annotation } from '../../../src/lib/probe/exchange.ts';
import { AnnotationSession } from '../../../src/lib/state/annotation.svelte.ts';
import { makeManifest, makeRecords } from '../../helpers/factories.ts';

/** An in-memory backend; `failNextAdd` makes the next write fail as a full disk would. */
function memoryBackend(initial: Annotation[] = []) {
	const stored = [...initial];
	const state = { failNextAdd: false };
	const backend: AnnotationBackend = {
		async load() {
			return { manifest: makeManifest(), records: makeRecords(8), annotations: [...stored] };
		},
		async add(a) {
			if (state.failNextAdd) {
				state.failNextAdd = false;
				throw new Error('QuotaExceededError');
			}
			stored.push(a);
		},
		async undo(_run, annotator, sessionId) {
			const i = stored.findLastIndex(
				(a) => a.annotator === annotator && a.session_id === sessionId
			);
			return i < 0 ? undefined : stored.splice(i, 1)[0];
		}
	};
	return { backend, stored, state };
}

let tick = 0;
const clock = () => new Date(Date.UTC(2026, 0, 1, 0, 0, ++tick)).toISOString();

describe('AnnotationSession', () => {
	it('writes labels in order and undoes through the same queue', async () => {
		const { backend, stored } = memoryBackend();
		const s = new AnnotationSession('run-a', backend, clock);
		await s.load();
		s.start('ana', 's1', { size: 8, seed: 0 });
		s.label('degenerate', 'not_genuine');
		s.label('meta_planning', 'not_genuine');
		s.undo();
		s.label('genuine_followup', 'genuine');
		await s.settled();
		expect(stored.map((a) => [a.label, a.verdict])).toEqual([
			['degenerate', 'not_genuine'],
			['genuine_followup', 'genuine']
		]);
		expect(s.progress).toEqual({ done: 2, total: 8 });
	});

	it('shows the error and falls back to what was stored when a write fails', async () => {
		const { backend, stored, state } = memoryBackend();
		const s = new AnnotationSession('run-a', backend, clock);
		await s.load();
		s.start('ana', 's1', { size: 8, seed: 0 });
		s.label('degenerate', 'not_genuine');
		await s.settled();
		state.failNextAdd = true;
		s.label('meta_planning', 'not_genuine');
		expect(s.progress.done).toBe(2); // on screen at once…
		await s.settled();
		expect(s.error).toMatch(/not saved: QuotaExceededError/);
		expect(stored).toHaveLength(1);
		expect(s.progress.done).toBe(1); // …and back to the truth after the failure
		expect(s.report.annotators).toEqual(['ana']);
	});

	it('resumes a session: undo reaches labels given before a reload', async () => {
		const { backend, stored } = memoryBackend();
		const first = new AnnotationSession('run-a', backend, clock);
		await first.load();
		first.start('ana', 's1', { size: 8, seed: 0 });
		first.label('degenerate', 'not_genuine');
		await first.settled();

		const again = new AnnotationSession('run-a', backend, clock);
		await again.load();
		again.start('ana', 's1', { size: 8, seed: 0 });
		expect(again.canUndo).toBe(true);
		again.undo();
		await again.settled();
		expect(stored).toEqual([]);
		expect(again.progress.done).toBe(0);
	});

	it('reports a missing run without throwing', async () => {
		const s = new AnnotationSession('nope', {
			...memoryBackend().backend,
			async load() {
				const { RunNotFoundError } = await import('../../../src/lib/db/errors.ts');
				throw new RunNotFoundError('nope');
			}
		});
		await s.load();
		expect(s.status).toBe('missing');
	});
});
