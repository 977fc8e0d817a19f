/**
 * The classroom preset: what a class of thirty can run on its own devices. One small model, which
 * answers, speaks as the user and judges (one download per student, one model in memory), and a
 * small plan: 10 items at one temperature, no perturbation, one sample. Labelling is the teacher's
 * choice: the rules with the same model judging what they leave undecided, or the rules alone,
 * whose undecided turns stay undecided (shown beside the rate, never counted as follow-ups).
 */
import type { JudgeMode } from '../probe/types.ts';
import type { RunFormValues } from './runForm.ts';

export const CLASSROOM_LABELLING = ['same-model', 'rules'] as const;
export type ClassroomLabelling = (typeof CLASSROOM_LABELLING)[number];

/** The run form's fields the preset sets; the rest (dataset, limits, template) stay as chosen. */
export type ClassroomValues = Pick<
	RunFormValues,
	'n' | 'temperatures' | 'perturbations' | 'samples' | 'judge_mode'
>;

export const CLASSROOM_ITEMS = 10;

export function classroomJudgeMode(labelling: ClassroomLabelling): JudgeMode {
	return labelling === 'rules' ? 'rules' : 'hybrid';
}

export function classroomValues(labelling: ClassroomLabelling): ClassroomValues {
	return {
		n: CLASSROOM_ITEMS,
		temperatures: '1',
		perturbations: ['none'],
		samples: 1,
		judge_mode: classroomJudgeMode(labelling)
	};
}

/** temperatures × perturbations × samples of the preset. */
export const CLASSROOM_CONDITIONS = 1;
