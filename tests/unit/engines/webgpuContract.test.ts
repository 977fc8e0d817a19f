import { engineContract } from '../../helpers/engineContract.ts';
import { fakeEngine } from '../../helpers/fakeWebLLM.ts';

engineContract('webllm (fake)', async () => {
	const { engine, fake, close } = fakeEngine();
	fake.reportsFor = () => [];
	return {
		engine,
		model: 'Qwen3-0.6B-q4f16_1-MLC',
		setScript: (script) => (fake.script = script),
		slowNextRequest: (ms) => fake.slowNextRequest(ms),
		close: async () => close()
	};
});
