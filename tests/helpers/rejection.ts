/** The error a promise rejects with, to check its class and fields; fails if it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
	try {
		await p;
	} catch (e) {
		return e as Error;
	}
	throw new Error('expected a rejection');
}
