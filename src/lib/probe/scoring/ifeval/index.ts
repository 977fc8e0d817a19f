export { evaluateIfeval, looseVariants } from './evaluate.ts';
export type { IfevalResult, InstructionResult } from './evaluate.ts';
export {
	buildCheck,
	INSTRUCTIONS,
	NlpUnavailableError,
	UnknownInstructionError,
	usesNlp
} from './registry.ts';
export type { NlpSupport } from './registry.ts';
export { IfevalArgumentError } from './args.ts';
export type { Kwargs } from './args.ts';
export { detectLanguage } from './detectLanguage.ts';
export { countSentences } from './sentences.ts';
export { countWords } from './text.ts';
export { IFBENCH_INSTRUCTIONS } from './ifbench.ts';
export { IFBENCH_NLP_INSTRUCTIONS } from './ifbenchNlp.ts';
