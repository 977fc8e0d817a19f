import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import ConversationView from '../../src/components/ConversationView.svelte';

afterEach(cleanup);

const HOSTILE = '<script>window.__pwned = true</script><img src=x onerror="window.__pwned=true">';

describe('ConversationView', () => {
	it('renders model text with markup in it as inert text', () => {
		const { container, getAllByTestId } = render(ConversationView, {
			question: 'What is <b>2+2</b>?',
			answer: HOSTILE,
			turns: [
				{ key: 'k1', text: `${HOSTILE} thanks!`, label: 'malformed_artifact', source: 'rules' }
			]
		});
		expect(container.querySelector('script')).toBeNull();
		expect(container.querySelector('img')).toBeNull();
		expect(container.querySelector('b')).toBeNull();
		expect(getAllByTestId('generated-text')[0].textContent).toBe(`${HOSTILE} thanks!`);
		expect(container.querySelector('[data-testid="conversation-answer"]')?.textContent).toBe(
			HOSTILE
		);
		expect(container.querySelector('[data-testid="conversation-question"]')?.textContent).toBe(
			'What is <b>2+2</b>?'
		);
		expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
	});

	it('shows each generated turn with its label, source and reason', () => {
		const { getAllByTestId, getByText } = render(ConversationView, {
			question: 'Q',
			answer: 'A',
			turns: [
				{
					key: 'a',
					caption: 'T = 0',
					text: 'Why?',
					label: 'genuine_followup',
					source: 'judge',
					reason: 'asks'
				},
				{ key: 'b', caption: 'T = 1', text: '', streaming: true }
			]
		});
		const turns = getAllByTestId('generated-turn');
		expect(turns).toHaveLength(2);
		const badges = getAllByTestId('label-badge');
		expect(badges[0].dataset.label).toBe('genuine_followup');
		expect(badges[0].textContent).toContain('Plausible follow-up');
		expect(badges[0].textContent).toContain('judge');
		expect(badges[1].textContent).toBe('pending');
		expect(getByText('asks')).toBeTruthy();
	});

	it('makes the newline of the user header visible', () => {
		const { container } = render(ConversationView, {
			question: 'Q',
			answer: 'A',
			userHeader: '<|im_start|>user\n',
			turns: [{ key: 'a', text: 'Hi' }]
		});
		expect(container.querySelector('code.header')?.textContent).toBe('<|im_start|>user\\n');
	});
});
