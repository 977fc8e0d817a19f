/**
 * Every dataset the app offers by name, in the order set-up and the CLI list them. Adding one is
 * a module beside these and a line here; everything else is derived (registry.ts).
 */
import { conversations } from './conversations.ts';
import { demo } from './demo.ts';
import { gpqaDiamond, gpqaMain } from './gpqa.ts';
import { gsm8k } from './gsm8k.ts';
import { ifbench } from './ifbench.ts';
import { ifeval } from './ifeval.ts';
import { oasstThreads } from './oasstThreads.ts';

export const TASKS = [
	demo,
	gsm8k,
	ifeval,
	ifbench,
	conversations,
	oasstThreads,
	gpqaDiamond,
	gpqaMain
] as const;
