/**
 * After a route change, move focus to the new view's h1 once it is drawn (views that read the
 * database draw it a little later), unless the view has already put focus on one of its own
 * controls (the annotator's name field, say). A view that swaps its h1 for another (Results shows
 * "Results" while it reads, then the run's title) would drop focus to <body> with the old one, so
 * until the wait ends a dropped focus follows to the new h1. Returns a cleanup that stops waiting.
 */
export function focusViewHeading(main: HTMLElement | null, waitMs = 3_000): () => void {
	if (!main) return () => {};
	/** The h1 this call focused, once it has. */
	let focused: HTMLElement | null = null;
	const dropped = () => {
		const active = document.activeElement;
		return !active || active === document.body || active === main;
	};
	/** Whether there is nothing left to do: the view or the reader chose where focus is. */
	const step = (): boolean => {
		if (focused?.isConnected) return false;
		if (!dropped() && (focused !== null || main.contains(document.activeElement))) return true;
		const h1 = main.querySelector('h1');
		if (!h1) return false;
		if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
		h1.focus();
		focused = h1;
		return false;
	};
	if (step()) return () => {};
	const observer = new MutationObserver(() => {
		if (step()) stop();
	});
	const timer = setTimeout(() => stop(), waitMs);
	function stop() {
		observer.disconnect();
		clearTimeout(timer);
	}
	observer.observe(main, { childList: true, subtree: true });
	return stop;
}
