/**
 * Work that should wait until the browser has painted the current frame, not merely until the
 * current task ends: a frame callback runs before the paint, a task queued from it runs after.
 * Without frames to wait for (Node, or a hidden tab, where frame callbacks pause), the next task.
 */
export function afterPaint(work: () => void): void {
	const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
	if (typeof requestAnimationFrame === 'function' && !hidden) {
		requestAnimationFrame(() => setTimeout(work, 0));
	} else setTimeout(work, 0);
}

/** Resolves once the current frame is painted (see afterPaint). */
export function painted(): Promise<void> {
	return new Promise((resolve) => afterPaint(resolve));
}
