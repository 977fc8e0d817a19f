/**
 * The server engine's settings: the server's URL and the served model ids. The API key is not
 * here: it stays in memory unless the user ticks "remember" (state/settings.svelte.ts).
 */
import type { TemplateSpec } from '../../probe/templateSource.ts';
import type { Box, EngineModels, ModelDownload, Persist } from '../provider.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8000/v1';

export class ServerModels implements EngineModels {
	readonly baseUrl: Box<string>;
	readonly modelId: Box<string>;
	readonly judgeModelId: Box<string>;

	constructor(persist: Persist) {
		this.baseUrl = persist('base-url', DEFAULT_BASE_URL);
		this.modelId = persist('model-id', '');
		this.judgeModelId = persist('judge-model-id', '');
	}

	generatorId(): string {
		return this.modelId.current.trim();
	}

	/** The judge defaults to the generator's model. */
	judgeId(): string {
		return this.judgeModelId.current.trim() || this.modelId.current.trim();
	}

	pickedGenerator(): string {
		return this.modelId.current.trim();
	}

	/**
	 * The template the server applies when it says (llama-server /props), else the one of the repo
	 * a served id names when it looks like a Hugging Face repo.
	 */
	defaultTemplate(): TemplateSpec | null {
		const model = this.modelId.current.trim();
		const baseUrl = this.baseUrl.current.trim();
		if (!model || !baseUrl) return null;
		return { kind: 'server', baseUrl, repos: model.includes('/') ? [model] : [] };
	}

	defaultTemplateRepo(): string {
		return this.modelId.current.includes('/') ? this.modelId.current : '';
	}

	problems(): string[] {
		return [
			...(this.baseUrl.current.trim() ? [] : ['Enter the server URL.']),
			...(this.modelId.current.trim() ? [] : ['Enter the served model id.'])
		];
	}

	/** Only the server can tell (provider.askContextWindow). */
	knownContextWindow(): number | undefined {
		return undefined;
	}

	thinking(): boolean | null {
		return null;
	}

	downloads(): ModelDownload[] {
		return [];
	}

	cacheIds(): string[] {
		return [];
	}

	/** The server decides what is resident. */
	shareMemory(): boolean {
		return true;
	}

	/** The server holds its models; nothing here loads them. */
	canCoLoad(): boolean {
		return true;
	}
}
