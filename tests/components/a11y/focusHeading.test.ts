import { afterEach, describe, expect, it } from 'vitest';
import { focusViewHeading } from '../../../src/components/a11y/focusHeading.ts';

function page(html: string): HTMLElement {
	document.body.innerHTML = `<header><a href="#/runs" id="nav">Runs</a></header><main id="main" tabindex="-1">${html}</main>`;
	return document.querySelector('main') as HTMLElement;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
	document.body.innerHTML = '';
});

describe('focusViewHeading', () => {
	it("focuses the view's h1 at once when it is there, making it focusable", () => {
		const main = page('<h1>Runs</h1><button>Compare</button>');
		(document.getElementById('nav') as HTMLElement).focus();
		focusViewHeading(main);
		const h1 = main.querySelector('h1');
		expect(document.activeElement).toBe(h1);
		expect(h1?.getAttribute('tabindex')).toBe('-1');
	});

	it('waits for an h1 drawn later (a view that reads the database first)', async () => {
		const main = page('<p aria-busy="true">Reading…</p>');
		focusViewHeading(main);
		expect(document.activeElement).toBe(document.body);
		main.innerHTML = '<h1>mock-model · demo</h1>';
		await tick();
		expect(document.activeElement?.textContent).toBe('mock-model · demo');
	});

	it('follows to the new h1 when the view swaps its h1 (Results: "Results", then the run)', async () => {
		const main = page('<h1 class="sr-only">Results</h1><p aria-busy="true">Reading…</p>');
		focusViewHeading(main);
		expect(document.activeElement?.textContent).toBe('Results');
		main.innerHTML = '<section><h1>mock-model · demo</h1></section>';
		await tick();
		expect(document.activeElement?.textContent).toBe('mock-model · demo');
	});

	it('leaves focus where the reader moved it before the h1 was swapped', async () => {
		const main = page('<h1>Results</h1>');
		focusViewHeading(main);
		(document.getElementById('nav') as HTMLElement).focus();
		main.innerHTML = '<h1>mock-model · demo</h1>';
		await tick();
		expect(document.activeElement?.id).toBe('nav');
	});

	it('leaves focus where the view put it (an autofocused field)', () => {
		const main = page('<h1>Annotate</h1><input id="name" />');
		(main.querySelector('#name') as HTMLInputElement).focus();
		focusViewHeading(main);
		expect(document.activeElement?.id).toBe('name');
	});

	it('stops waiting when cleaned up (the view was left)', async () => {
		const main = page('');
		const stop = focusViewHeading(main);
		stop();
		main.innerHTML = '<h1>Late</h1>';
		await tick();
		expect(document.activeElement).toBe(document.body);
	});

	it('gives up after the wait', async () => {
		const main = page('');
		focusViewHeading(main, 5);
		await new Promise((r) => setTimeout(r, 20));
		main.innerHTML = '<h1>Too late</h1>';
		await tick();
		expect(document.activeElement).toBe(document.body);
	});
});
