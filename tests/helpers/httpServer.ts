/** A real HTTP server on 127.0.0.1 for one test file: started before, closed (connections too) after. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
	/** e.g. "http://127.0.0.1:41234". */
	base: string;
	close(): Promise<void>;
}

export async function listenLocal(handler: RequestListener): Promise<LocalServer> {
	const server: Server = createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
