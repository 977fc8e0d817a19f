/** The paired-effects worker: a shell around pairedReply, so the bootstraps never run on the tab. */
import { pairedReply } from '../lib/results/pairedJob.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event) => scope.postMessage(pairedReply(event.data));
