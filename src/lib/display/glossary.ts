/**
 * One line per term a newcomer meets on screen, shown on demand by the Term component (a button
 * that works with keyboard and touch, never a `title` tooltip).
 */
export const GLOSSARY = {
	q4f32:
		'A model packed to 4-bit weights that computes in 32-bit floats: runs on any WebGPU device, a little larger and slower than q4f16.',
	q4f16:
		'A model packed to 4-bit weights that computes in 16-bit floats: smaller and faster, but needs the GPU feature shader-f16.',
	'shader-f16':
		'A WebGPU feature for 16-bit arithmetic on the GPU; without it only q4f32 model variants can run.',
	VRAM: 'GPU memory. The figure is what the model needs loaded; generator and judge together must fit your GPU.',
	'samples per condition':
		'How many user turns are generated for each item at each temperature and perturbation; more samples give tighter intervals.',
	thinking:
		'Lets a reasoning model write hidden reasoning before its answer (the template’s enable_thinking); slower, and it changes what the model sees.',
	hybrid:
		'Hybrid labelling: fixed rules label the clear cases (empty, repeated, template debris), and the LLM judge labels the rest.',
	Wilson:
		'The Wilson interval: a 95% confidence range for a rate that stays sensible for small counts and rates near 0% or 100%.',
	'cluster bootstrap':
		'Resampling whole items (with all their samples) to get a 95% interval that respects that samples of one item are alike.',
	pp: 'Percentage points: the difference between two percentages (30% vs 25% is 5 pp).',
	κ: 'Cohen’s kappa: agreement between two labelers corrected for chance; 0 is chance level, 1 is perfect.',
	temperature:
		'How much randomness goes into each next word: at T=0 the model always picks its likeliest word (one fixed answer), higher T samples more varied text.',
	perturbation:
		'A deliberate change to the model’s own answer before it is asked to continue as the user (cut short, text appended, replaced by a neutral or a contradicting statement, or no conversation at all), to see whether its user turn notices.',
	'chat template':
		'The model’s own recipe for turning a conversation into text, with special tokens marking who speaks; the probe uses it to hand the model the user’s turn.',
	judge:
		'The model (or fixed rules) that reads each generated user turn and labels it: a genuine follow-up, or which way it failed.',
	CI: 'Confidence interval: the range the true rate is likely in (95% of such ranges contain it). Few turns give a wide range: then the number alone says little.'
} as const;

export type Term = keyof typeof GLOSSARY;
