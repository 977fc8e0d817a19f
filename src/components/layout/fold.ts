/** The width below which a page's folding sections start folded: a phone (app.css's cards). */
export const PHONE_MAX_PX = 640;

/** Whether a folding section starts open here: yes, except on a phone (and where none can say). */
export function foldsOpen(): boolean {
	if (typeof matchMedia !== 'function') return true;
	return !matchMedia(`(max-width: ${PHONE_MAX_PX}px)`).matches;
}
