/** The CLI's template-check worker thread: a shell around checkReply (see templateCheck.ts). */
import { parentPort } from 'node:worker_threads';
import { checkReply, WORKER_READY } from '../lib/probe/templateCheck.ts';
import type { ChatTemplate } from '../lib/probe/template.ts';

parentPort?.on('message', (t: ChatTemplate) => parentPort?.postMessage(checkReply(t)));
parentPort?.postMessage(WORKER_READY);
