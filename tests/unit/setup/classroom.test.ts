import { describe, expect, it } from 'vitest';
import { classroomValues } from '../../../src/lib/setup/classroom.ts';
import { conditionCount, formProblems, DEFAULT_FORM } from '../../../src/lib/setup/runForm.ts';

describe('the classroom preset', () => {
	it('is a valid 10-item, one-condition plan, labelled by rules then the same model, or rules only', () => {
		const same = { ...DEFAULT_FORM, ...classroomValues('same-model') };
		expect(formProblems(same)).toEqual([]);
		expect(conditionCount(same)).toBe(1);
		expect(same).toMatchObject({ n: 10, judge_mode: 'hybrid' });
		expect(classroomValues('rules').judge_mode).toBe('rules');
	});
});
