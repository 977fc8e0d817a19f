import { cleanup, fireEvent, render, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import EnvironmentPanel from '../../src/components/EnvironmentPanel.svelte';
import { probeGpu } from '../../src/lib/engines/webgpu/gpu.ts';

afterEach(cleanup);

describe('EnvironmentPanel', () => {
	it('without WebGPU, says the CPU engine runs the models, what that means, and how to get a GPU', async () => {
		const onUseServer = vi.fn();
		const { getByTestId, queryByTestId, getByText } = render(EnvironmentPanel, {
			gpu: { webgpu: false, shader_f16: false, reason: 'This browser does not offer WebGPU.' },
			storage: { persisted: null },
			onUseServer
		});
		expect(getByTestId('env-webgpu').textContent).toBe('no');
		const box = getByTestId('env-no-webgpu');
		expect(box.textContent).not.toMatch(/cannot run/i);
		// The catalog's words load with the fallback, not with the first paint.
		await waitFor(() =>
			expect(getByTestId('env-cpu-engine').textContent).toMatch(
				/No WebGPU here: models run on the CPU engine .*slower than a GPU.*Qwen2\.5 0\.5B Instruct.* answer; Qwen2\.5 1\.5B Instruct judges/s
			)
		);
		// Information, not an error: no alert role, no error colour.
		expect(box.getAttribute('role')).toBe('status');
		expect(box.textContent).toContain('This browser does not offer WebGPU.');
		expect(box.textContent).toMatch(/Chrome or Edge 113 or later/);
		expect(box.textContent).toMatch(/chrome:\/\/flags\/#enable-unsafe-webgpu/);
		expect(box.textContent).toMatch(/Another device/);
		expect(box.textContent).toMatch(/OpenAI-compatible server/);
		expect(box.querySelector('a')?.getAttribute('href')).toBe('#/runs');
		expect(queryByTestId('env-f16-note')).toBeNull();
		await fireEvent.click(getByText('use a server'));
		expect(onUseServer).toHaveBeenCalledOnce();
	});

	// The reasons the real probe gives, plus the environment's own when probing throws.
	const UNUSABLE = [
		['no navigator.gpu', () => probeGpu({})],
		['no adapter', () => probeGpu({ gpu: { requestAdapter: async () => null } })],
		[
			'a failed probe',
			async () => ({ webgpu: false, shader_f16: false, reason: 'Checking WebGPU failed: boom' })
		]
	] as const;

	it.each(UNUSABLE)('with %s, says each thing once', async (_, report) => {
		const { getByTestId } = render(EnvironmentPanel, {
			gpu: await report(),
			storage: { persisted: null },
			onUseServer: () => {}
		});
		const text = getByTestId('env-no-webgpu').textContent ?? '';
		const count = (re: RegExp) => text.match(new RegExp(re, 'gi'))?.length ?? 0;
		expect(count(/shared runs can still be opened/)).toBe(1);
		expect(count(/Chrome or Edge/)).toBe(1);
		expect(count(/OpenAI-compatible server/)).toBe(1);
	});

	it('when the engine is already a server, says so instead of offering to switch', () => {
		const { getByTestId, queryByText } = render(EnvironmentPanel, {
			gpu: { webgpu: false, shader_f16: false, reason: 'This browser does not offer WebGPU.' },
			storage: { persisted: null },
			onUseServer: () => {},
			usingServer: true
		});
		expect(getByTestId('env-server-hint').textContent).toMatch(
			/engine below is set to an OpenAI-compatible server/
		);
		expect(queryByText('use a server')).toBeNull();
	});

	it('with WebGPU but no shader-f16, says q4f32 variants are used', () => {
		const { getByTestId, queryByTestId } = render(EnvironmentPanel, {
			gpu: {
				webgpu: true,
				adapter: { vendor: 'google', architecture: 'swiftshader' },
				shader_f16: false
			},
			storage: { usage_bytes: 5 * 1024 ** 2, quota_bytes: 2 * 1024 ** 3, persisted: false },
			onPersist: () => {}
		});
		expect(getByTestId('env-webgpu').textContent).toBe('yes');
		expect(getByTestId('env-adapter').textContent).toContain('google · swiftshader');
		expect(getByTestId('env-f16').textContent).toBe('no');
		expect(getByTestId('env-f16-note').textContent).toContain(
			'q4f16 models cannot run here; using q4f32 variants'
		);
		expect(getByTestId('env-storage').textContent).toContain('5 MB used of 2.0 GB');
		expect(getByTestId('persist-storage')).toBeTruthy();
		expect(queryByTestId('env-no-webgpu')).toBeNull();
	});

	it('shows a checking state before the probe answers', () => {
		const { getByText } = render(EnvironmentPanel, { gpu: null, storage: null });
		expect(getByText('Checking WebGPU…')).toBeTruthy();
	});
});
