/**
 * The runs view over a real DexieRunStore in fake-indexeddb: the list, import with its error
 * display (file and line of each problem, nothing stored), the conflict choice, export as
 * downloads, compare and delete with confirmation.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { createDB, type ProbeDB } from '../../../src/lib/db/schema.ts';
import { bundleToFiles } from '../../../src/lib/probe/exchange.ts';
import RunsView from '../../../src/views/runs/RunsView.svelte';
import { makeBundle, makeManifest } from '../../helpers/factories.ts';
import { renderWithServices } from '../renderWithServices.ts';

const dbRef = { current: undefined as ProbeDB | undefined };
const renderRuns = () => renderWithServices(RunsView, { params: {} }, { db: dbRef.current });

let store: DexieRunStore;

beforeEach(() => {
	dbRef.current = createDB(`runs-view-${Math.random()}`, {
		indexedDB: new IDBFactory(),
		IDBKeyRange
	});
	store = new DexieRunStore(dbRef.current);
});

afterEach(() => {
	cleanup();
	vi.restoreAllMocks();
	dbRef.current?.close();
});

function pick(files: File[]) {
	const input = screen.getByTestId('import-files') as HTMLInputElement;
	Object.defineProperty(input, 'files', { value: files, configurable: true });
	return fireEvent.change(input);
}

const runRow = (runId: string) =>
	screen.getAllByTestId('run-row').find((r) => r.dataset.runId === runId) as HTMLElement;

describe('runs view', () => {
	it('shows the parts below the list with it, and after a second when the read hangs', async () => {
		// A read another tab holds up (a database upgrade waiting on it) never answers.
		vi.spyOn(DexieRunStore.prototype, 'listRuns').mockReturnValue(new Promise(() => {}));
		const t0 = performance.now();
		renderRuns();
		expect(screen.getByText('Reading runs…')).toBeTruthy();
		// Nothing below the list yet, so the list cannot push it down once it is read.
		expect(screen.queryByTestId('import-files')).toBeNull();
		await screen.findByTestId('import-files', {}, { timeout: 3000 });
		expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
		expect(screen.getByText('Reading runs…')).toBeTruthy();
	});

	it('lists each run with its model, dataset, status, record count and follow-up rate', async () => {
		await store.importRun(makeBundle(12, 'run-a'));
		await store.importRun({
			...makeBundle(6, 'run-b'),
			manifest: makeManifest({ run_id: 'run-b', status: 'paused' })
		});
		renderRuns();
		await screen.findByTestId('runs-table');
		// Counts arrive after the list: wait for the rate.
		// makeRecords cycles four labels: 3 of 12 are genuine follow-ups.
		await waitFor(() => expect(runRow('run-a').textContent).toContain('25.0%'));
		const a = runRow('run-a');
		expect(a.querySelectorAll('td')[5].textContent?.trim()).toBe('12');
		expect(a.textContent).toContain('Qwen3-0.6B-q4f16_1-MLC');
		expect(a.textContent).toContain('gsm8k');
		expect(a.textContent).toContain('done');
		const b = runRow('run-b');
		expect(within(b).getByTestId('resume-link').getAttribute('href')).toBe('#/run/run-b');
		expect(within(a).queryByTestId('resume-link')).toBeNull();
	});

	it('shows every import problem with its file and line, and stores nothing', async () => {
		renderRuns();
		await screen.findByTestId('runs-table');
		const { jsonl, manifest } = bundleToFiles(makeBundle(3, 'run-a'));
		const lines = jsonl.split('\n');
		lines[2] = '{not json';
		await pick([
			new File([lines.join('\n')], 'run-a.jsonl'),
			new File([manifest.replace('"run_id": "run-a"', '"run_id": ""')], 'run-a.manifest.json')
		]);
		const error = await screen.findByTestId('import-error');
		expect(error.textContent).toContain('Nothing was imported');
		const problems = within(error)
			.getAllByRole('listitem')
			.map((li) => li.textContent);
		expect(problems.some((p) => p?.startsWith('run-a.manifest.json: field run_id must be'))).toBe(
			true
		);
		expect(problems.some((p) => p?.startsWith('run-a.jsonl, line 3: not valid JSON'))).toBe(true);
		expect(await store.listRuns()).toEqual([]);
		expect(screen.queryAllByTestId('run-row')).toHaveLength(0);
	});

	it('asks for the missing file when only one is picked', async () => {
		renderRuns();
		await screen.findByTestId('runs-table');
		await pick([new File(['{}'], 'run-a.manifest.json')]);
		const error = await screen.findByTestId('import-error');
		expect(error.textContent).toContain('missing: the records file (.jsonl)');
	});

	it('imports a valid pair and lists it, then offers a copy when it is imported again', async () => {
		renderRuns();
		await screen.findByTestId('runs-table');
		const { jsonl, manifest } = bundleToFiles(makeBundle(5, 'run-a'));
		const files = () => [new File([jsonl], 'a.jsonl'), new File([manifest], 'a.manifest.json')];
		await pick(files());
		await waitFor(() => expect(runRow('run-a')).toBeTruthy());
		expect(screen.getByRole('status').textContent).toContain('run-a');

		await pick(files());
		const error = await screen.findByTestId('import-error');
		expect(error.textContent).toContain('already exists');
		await fireEvent.click(within(error).getByTestId('import-as-copy'));
		await waitFor(() => expect(runRow('run-a-2')).toBeTruthy());
		expect(await store.countRecords('run-a-2')).toBe(5);
	});

	it('exports the records, the manifest and a CSV as downloads', async () => {
		await store.importRun(makeBundle(4, 'run-a'));
		const blobs: Blob[] = [];
		const names: string[] = [];
		URL.createObjectURL = vi.fn((b: Blob) => (blobs.push(b), `blob:${blobs.length}`));
		URL.revokeObjectURL = vi.fn();
		vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
			this: HTMLAnchorElement
		) {
			names.push(this.download);
		});
		renderRuns();
		await screen.findByTestId('runs-table');
		const row = await waitFor(() => runRow('run-a'));
		for (const id of ['export-jsonl', 'export-manifest', 'export-csv'])
			await fireEvent.click(within(row).getByTestId(id));
		await waitFor(() => expect(names).toHaveLength(3));
		expect(names).toEqual(['run-a.jsonl', 'run-a.manifest.json', 'run-a.csv']);
		const jsonl = await blobs[0].text();
		expect(jsonl.trim().split('\n')).toHaveLength(4);
		expect(JSON.parse(await blobs[1].text()).run_id).toBe('run-a');
	});

	it('compares two picked runs and deletes only after confirmation', async () => {
		await store.importRun(makeBundle(6, 'run-a'));
		await store.importRun(makeBundle(6, 'run-b'));
		renderRuns();
		await screen.findByTestId('runs-table');
		const compare = screen.getByTestId('compare') as HTMLButtonElement;
		await waitFor(() => expect(screen.getAllByTestId('run-row')).toHaveLength(2));
		expect(compare.disabled).toBe(true);
		for (const id of ['run-a', 'run-b'])
			await fireEvent.click(within(runRow(id)).getByRole('checkbox'));
		expect(compare.disabled).toBe(false);
		await fireEvent.click(compare);
		const table = await screen.findByTestId('compare-table');
		expect(table.textContent).toContain('run-a');
		expect(table.textContent).toContain('±0.0 pp');

		await fireEvent.click(within(runRow('run-b')).getByTestId('delete-run'));
		expect(await store.getRun('run-b')).toBeDefined();
		await fireEvent.click(within(runRow('run-b')).getByTestId('delete-confirm'));
		await waitFor(() => expect(screen.getAllByTestId('run-row')).toHaveLength(1));
		expect(await store.getRun('run-b')).toBeUndefined();
		expect(screen.queryByTestId('compare-table')).toBeNull();
	});
});
