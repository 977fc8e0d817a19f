import { cleanup, fireEvent, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import EnvironmentPanel from '../../src/components/EnvironmentPanel.svelte';

afterEach(cleanup);

describe('EnvironmentPanel', () => {
	it('without WebGPU, says models cannot run and what to try instead', async () => {
		const onUseServer = vi.fn();
		const { getByTestId, queryByTestId, getByText } = render(EnvironmentPanel, {
			gpu: { webgpu: false, shader_f16: false, reason: 'This browser does not offer WebGPU.' },
			storage: { persisted: null },
			onUseServer
		});
		expect(getByTestId('env-webgpu').textContent).toBe('no');
		const box = getByTestId('env-no-webgpu');
		expect(box.textContent).toContain('Models cannot run in this browser.');
		expect(box.textContent).toContain('This browser does not offer WebGPU.');
		expect(box.textContent).toMatch(/Chrome or Edge/);
		expect(box.textContent).toMatch(/Enable WebGPU/);
		expect(box.textContent).toMatch(/OpenAI-compatible server/);
		expect(box.querySelector('a')?.getAttribute('href')).toBe('#/runs');
		expect(queryByTestId('env-f16-note')).toBeNull();
		await fireEvent.click(getByText('use a server'));
		expect(onUseServer).toHaveBeenCalledOnce();
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
