/** Every scenario, in the order they run (cheap and independent first). */
import type { E2EContext } from '../context.ts';
import type { Scenario } from '../harness.ts';
import { annotation } from './annotate.ts';
import { capability } from './capability.ts';
import { classLink } from './classLink.ts';
import { cliStudy } from './cliStudy.ts';
import { classroomPreset } from './classroomPreset.ts';
import { cpuRun } from './cpuRun.ts';
import { cpuSweep } from './cpuSweep.ts';
import { customMlc } from './customMlc.ts';
import { serverRealRun } from './serverRealRun.ts';
import { deviceBench } from './deviceBench.ts';
import { fullRun } from './fullRun.ts';
import { isolation } from './isolation.ts';
import { offline } from './offline.ts';
import { nlpData } from './nlpData.ts';
import { offlineHelp } from './offlineHelp.ts';
import { phoneNumbers } from './phoneNumbers.ts';
import { phoneTables } from './phoneTables.ts';
import { pooledLabels } from './pooledLabels.ts';
import { referenceTurns } from './referenceTurns.ts';
import { readable } from './readable.ts';
import { reliability } from './reliability.ts';
import { resume } from './resume.ts';
import { sweep } from './sweep.ts';
import { screenshots } from './screenshots.ts';
import { seeOffline } from './seeOffline.ts';
import { startFail } from './startFail.ts';
import { tabs } from './tabs.ts';
import { shareLink } from './shareLink.ts';
import { studyLink } from './studyLink.ts';
import { hostileServer } from './hostileServer.ts';
import { templateSources } from './templateSources.ts';
import { transfer } from './transfer.ts';
import { keyboardRun } from './keyboardRun.ts';
import { liveStill } from './liveStill.ts';
import { viewsStill } from './viewsStill.ts';
import { hubBlockedStart } from './hubBlockedStart.ts';
import { mirrorRun } from './mirrorRun.ts';
import { desktop, keyboard, phone } from './viewTour.ts';
import { xss } from './xss.ts';

export const SCENARIOS: Scenario<E2EContext>[] = [
	capability,
	seeOffline,
	classLink,
	templateSources,
	deviceBench,
	fullRun,
	resume,
	liveStill,
	viewsStill,
	sweep,
	cliStudy,
	tabs,
	startFail,
	hubBlockedStart,
	customMlc,
	serverRealRun,
	offlineHelp,
	nlpData,
	cpuRun,
	classroomPreset,
	mirrorRun,
	cpuSweep,
	isolation,
	transfer,
	shareLink,
	studyLink,
	hostileServer,
	reliability,
	xss,
	annotation,
	pooledLabels,
	referenceTurns,
	offline,
	screenshots,
	phone,
	phoneNumbers,
	phoneTables,
	readable,
	desktop,
	keyboard,
	keyboardRun
];
