/** The first screen's class list: the teacher's runs as links, or the failure in words. */
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ClassExamples from '../../../src/components/runs/ClassExamples.svelte';

afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

const INDEX = {
	examples: [
		{
			file: 'week1.run.jsonl',
			title: 'Week 1: Qwen3 on GSM8K',
			model: 'Qwen3-0.6B-q4f16_1-MLC',
			device: 'Apple M2, Chrome 131 (WebGPU)',
			date: '2026-11-20'
		}
	]
};

describe('ClassExamples', () => {
	it("lists the teacher's hosted runs as links that open them", async () => {
		vi.stubGlobal('fetch', async () => new Response(JSON.stringify(INDEX)));
		render(ClassExamples, { url: 'https://teacher.example.org/class/index.json' });
		const link = await screen.findByRole('link', { name: 'Week 1: Qwen3 on GSM8K' });
		expect(link.getAttribute('href')).toBe(
			`#/open?url=${encodeURIComponent('https://teacher.example.org/class/week1.run.jsonl')}`
		);
		expect(screen.getByTestId('class-examples').textContent).toContain('teacher.example.org');
	});

	it('says plainly when the list is missing, instead of showing nothing', async () => {
		vi.stubGlobal('fetch', async () => new Response('Not Found', { status: 404 }));
		render(ClassExamples, { url: 'https://teacher.example.org/class/index.json' });
		const alert = await screen.findByTestId('class-error');
		expect(alert.textContent).toMatch(/could not be read: .*answered 404/);
	});
});
