/** The template-check worker: a shell around checkReply, so set-up never renders on the tab. */
import { checkReply, WORKER_READY } from '../lib/probe/templateCheck.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event) => scope.postMessage(checkReply(event.data));
scope.postMessage(WORKER_READY);
