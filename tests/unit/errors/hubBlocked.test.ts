import { describe, expect, it } from 'vitest';
import { isHubBlocked } from '../../../src/lib/errors/hubBlocked.ts';

describe('isHubBlocked: huggingface.co cannot be reached at all', () => {
	it.each([
		[
			'web-llm behind a firewall',
			'Downloading the model files from Hugging Face (huggingface.co) failed. If huggingface.co is blocked on this network…'
		],
		[
			'the CPU engine',
			'Downloading https://huggingface.co/Qwen/x/resolve/main/q.gguf failed (Failed to fetch).'
		],
		[
			'a Hub dataset',
			'datasets-server.huggingface.co could not be reached (network error after 2 attempts: Failed to fetch). The network may block it, or this device is offline.'
		],
		[
			'the template loader',
			'No chat template: https://huggingface.co/Qwen/Qwen3.5-0.8B/resolve/main/tokenizer_config.json: TypeError: Failed to fetch'
		]
	])('%s', (_, message) => {
		expect(isHubBlocked(message)).toBe(true);
	});

	it.each([
		[
			'the Hub answered 404 (a wrong name, not a block)',
			'https://huggingface.co/x/y: HTTP 404 Not Found (Failed to fetch the template)'
		],
		['another host', 'Could not reach 127.0.0.1:8000: Failed to fetch'],
		['the Hub named without a network failure', 'huggingface.co/x/y has no chat_template'],
		['nothing', null]
	])('not %s', (_, message) => {
		expect(isHubBlocked(message)).toBe(false);
	});
});
