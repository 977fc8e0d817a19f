/**
 * The words set-up says about an estimate's download time, apart from estimate.ts so they load
 * after set-up paints (StartNotes, SweepSection): the numbers are estimate.ts's.
 */
import { formatDuration, type Estimate } from './estimate.ts';

/**
 * What the download adds to the time, as set-up says it: from the last measured download, or that
 * the time leaves it out; '' when nothing is downloaded. Sizes nobody lists add an unknown time.
 */
export function downloadTimeText(
	e: Pick<Estimate, 'download_MB' | 'download_seconds' | 'download_speed' | 'unknown_sizes'>
): string {
	const unknown = e.unknown_sizes.length > 0;
	if (e.download_seconds === 0 && !unknown) return '';
	const speed = e.download_speed;
	if (e.download_seconds === null || !speed) {
		const what =
			e.download_MB > 0
				? `the ${Math.round(e.download_MB).toLocaleString('en')} MB download`
				: 'the download';
		return `The time excludes ${what}: no download has been timed in this browser yet.`;
	}
	const rate = `${Math.round(speed.MB_per_s * 10) / 10} MB/s`;
	const last = `${rate}, the speed of the last download here (${speed.at.slice(0, 10)})`;
	if (e.download_seconds === 0) {
		return `The time excludes the models whose size is not listed (at ${last}).`;
	}
	const rest = unknown ? ', plus the models whose size is not listed' : '';
	return `Downloading adds ${formatDuration(e.download_seconds)}${rest}, at ${last}.`;
}
