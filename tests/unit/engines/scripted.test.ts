import { expect, it } from 'vitest';
import { engineContract } from '../../helpers/engineContract.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';
import { defaultScript, type ScriptFn } from '../../helpers/script.ts';

engineContract('scripted', async () => {
	let script: ScriptFn = defaultScript;
	const engine = new ScriptedEngine({ script: (req) => script(req) });
	return {
		engine,
		model: 'scripted-model',
		setScript: (s) => (script = s),
		slowNextRequest: (ms) => (engine.tokenDelayMs = ms)
	};
});

it('refuses to complete on a model that is not loaded', async () => {
	const engine = new ScriptedEngine();
	const req = {
		model: 'x',
		prompt: 'p',
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 4,
		stop: []
	};
	await expect(engine.complete(req)).rejects.toMatchObject({ code: 'model_not_loaded' });
});
