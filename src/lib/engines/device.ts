/**
 * Opening an engine that runs on this device (WebGPU or CPU) for a run: the same engine generates
 * and judges, the runtime's version goes into the manifest and identifies the models, and a run
 * that stops lets go of the memory or drops an engine that broke.
 */
import { EngineError } from '../probe/engine.ts';
import type { DeviceEngine, EngineHosts, EngineProvider, OpenedEngine } from './provider.ts';

/** Engine codes after which an engine on this device is broken and must be made anew. */
const BROKEN_CODES = new Set(['device_lost', 'unknown']);

export function openOnDevice(device: DeviceEngine, reset: () => void): OpenedEngine {
	return {
		engine: device.engine,
		judge: device.engine,
		version: device.version,
		fingerprints: async (ids) => ({
			generator: { id: ids.generator, runtime: device.version },
			judge: { id: ids.judge, runtime: device.version }
		}),
		release: async (why, error) => {
			if (why === 'cancel') await device.unload();
			if (why === 'fatal' && error instanceof EngineError && BROKEN_CODES.has(error.code)) reset();
		}
	};
}

/** A provider's `open` and `device` for an engine the hosts keep on this device under its kind. */
export function hostedOnDevice(kind: string): Pick<EngineProvider, 'open' | 'device'> {
	return {
		open: async (hosts: EngineHosts) =>
			openOnDevice(hosts.device(kind), () => hosts.resetDevice(kind)),
		device: (hosts: EngineHosts) => hosts.device(kind)
	};
}
