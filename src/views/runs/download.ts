/** Hands a text file to the person as a download, without a server. */
import type { DownloadFile } from '$lib/state/runs.svelte';

/** Chrome reads the blob after click() returns: revoking at once can cancel the download. */
const REVOKE_AFTER_MS = 60_000;

export function downloadFile(file: DownloadFile): void {
	const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
	const a = document.createElement('a');
	a.href = url;
	a.download = file.name;
	a.hidden = true;
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
