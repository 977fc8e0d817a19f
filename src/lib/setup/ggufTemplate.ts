/**
 * A bring-your-own GGUF model's chat template, read from the file's own metadata
 * (tokenizer.chat_template, and the bos/eos token texts the template may use) with HTTP range
 * requests: only the header is fetched, never the weights. @huggingface/gguf is imported on first
 * use, so the page pays for it only when a GGUF URL is used.
 */
import type { ChatTemplate } from '../probe/template.ts';
import { TemplateError } from '../probe/template.ts';
import { templateFromFile } from '../probe/templateSource.ts';

export interface GgufTemplateDeps {
	fetch: typeof fetch;
	signal?: AbortSignal;
}

/** @throws TemplateError when the file cannot be read or carries no chat template; AbortError. */
export async function templateFromGguf(url: string, deps: GgufTemplateDeps): Promise<ChatTemplate> {
	const { gguf } = await import('@huggingface/gguf');
	let metadata: Record<string, unknown>;
	try {
		const out = await gguf(url, {
			fetch: (input, init) => deps.fetch(input, { ...init, signal: deps.signal })
		});
		metadata = out.metadata as Record<string, unknown>;
		if (!headerComplete({ metadata, tensorInfos: out.tensorInfos }))
			throw new TemplateError(`${url}: could not read the GGUF header: ${CUT_OFF}`);
	} catch (err) {
		if (err instanceof TemplateError) throw err;
		if ((err as Error)?.name === 'AbortError') throw err;
		throw new TemplateError(`${url}: ${headerProblem(err)}`, { cause: err });
	}
	const source = metadata['tokenizer.chat_template'];
	if (typeof source !== 'string' || source.trim() === '') {
		throw new TemplateError(
			`${url}: the GGUF file has no tokenizer.chat_template; choose the template's repo, URL or file instead`
		);
	}
	const tokens = metadata['tokenizer.ggml.tokens'];
	const token = (key: string): string | null => {
		const id = metadata[key];
		if (!Array.isArray(tokens) || typeof id !== 'number') return null;
		const text: unknown = tokens[id];
		return typeof text === 'string' ? text : null;
	};
	const t = await templateFromFile(source, {
		bos_token: token('tokenizer.ggml.bos_token_id'),
		eos_token: token('tokenizer.ggml.eos_token_id')
	});
	t.repo = url;
	return t;
}

/**
 * A GGUF header that cannot be read, in words: the parser reports a file cut off inside its
 * header as a DataView bounds error (or not at all: see headerComplete).
 */
function headerProblem(err: unknown): string {
	const text = err instanceof Error ? err.message : String(err);
	if (err instanceof RangeError || /outside the bounds|DataView|out of range/i.test(text))
		return `could not read the GGUF header: ${CUT_OFF}`;
	return `could not read the GGUF header (${text})`;
}

const CUT_OFF = 'it ends early, so the file is cut off or is not a whole GGUF file';

/**
 * Whether the parser read every key and tensor the header declares: on a file cut off inside its
 * header it returns what it got, with no error.
 */
function headerComplete(out: {
	metadata: Record<string, unknown>;
	tensorInfos: unknown[];
}): boolean {
	const m = out.metadata;
	const keys = Object.keys(m).filter((k) => !['version', 'tensor_count', 'kv_count'].includes(k));
	return keys.length === Number(m.kv_count) && out.tensorInfos.length === Number(m.tensor_count);
}
