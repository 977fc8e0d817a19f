/**
 * An OpenAI-compatible server on 127.0.0.1 that misbehaves on purpose: it trickles a completion
 * token every half second and never finishes, or floods a completion stream, a judge body, /props
 * or an error page with up to `floodBytes` generated on the fly (never held in memory: each chunk is
 * written when the socket drains, and the flood stops when the client hangs up). Everything else
 * answers as llama-server does (SSE for stream:true, /props), so a run reaches the faulty reply.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocal, type LocalServer } from './httpServer.ts';

export type Hostility =
	| 'none'
	/** /v1/completions: one token event every `trickleMs`, forever. */
	| 'trickle-stream'
	/** /v1/completions: token events without end (up to floodBytes). */
	| 'flood-stream'
	/** /v1/completions: one SSE line that never ends. */
	| 'flood-line'
	/** /v1/chat/completions: a 200 JSON body without end. */
	| 'flood-judge'
	/** /props: a 200 JSON body without end. */
	| 'flood-props'
	/** /props: headers, then silence. */
	| 'stall-props'
	/** /v1/completions: HTTP 500 with an endless error page. */
	| 'flood-error';

export interface HostileServer extends LocalServer {
	hostility: Hostility;
	/** Bytes a flood may send before it ends on its own. */
	floodBytes: number;
	trickleMs: number;
	/** Bytes the floods sent so far (all of them). */
	readonly sent: number;
	/** The model id /v1/models serves. */
	model: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');
const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
	let text = '';
	for await (const part of req) text += String(part);
	try {
		return JSON.parse(text) as Record<string, unknown>;
	} catch {
		return {};
	}
}

export async function startHostileServer(): Promise<HostileServer> {
	let sent = 0;
	/** Writes `head`, then `piece` again and again until `limit` bytes or the client leaves. */
	async function flood(res: ServerResponse, head: string, piece: Buffer, limit: number) {
		let closed = false;
		res.on('close', () => (closed = true));
		res.write(head);
		let n = 0;
		while (!closed && n < limit) {
			n += piece.length;
			sent += piece.length;
			if (!res.write(piece))
				await new Promise<void>((r) => {
					res.once('drain', r);
					res.once('close', r);
				});
		}
		res.end();
	}
	const tokenEvent = (text: string) =>
		`data: ${JSON.stringify({ id: 'c', object: 'text_completion', model: state.model, choices: [{ index: 0, text, finish_reason: null }] })}\n\n`;

	const state: HostileServer = {
		hostility: 'none',
		floodBytes: 1024 ** 3,
		trickleMs: 500,
		model: 'gen',
		get sent() {
			return sent;
		},
		base: '',
		close: async () => {}
	};
	const server = await listenLocal((req, res) => {
		void (async () => {
			const url = req.url ?? '';
			if (req.method === 'OPTIONS') {
				res.writeHead(204, { ...CORS, 'access-control-allow-methods': 'GET, POST' });
				return res.end();
			}
			const h = state.hostility;
			if (url.startsWith('/v1/models')) {
				res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
				return res.end(
					JSON.stringify({ object: 'list', data: [{ id: state.model, object: 'model' }] })
				);
			}
			if (url.startsWith('/props')) {
				if (h === 'stall-props') {
					res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
					return res.write('{');
				}
				if (h === 'flood-props')
					return flood(
						(res.writeHead(200, { ...CORS, 'content-type': 'application/json' }), res),
						'{"chat_template": "',
						CHUNK,
						state.floodBytes
					);
				res.writeHead(404, CORS);
				return res.end(
					'{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}'
				);
			}
			const request = await body(req);
			if (url.startsWith('/v1/chat/completions')) {
				if (h === 'flood-judge') {
					res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
					return flood(res, '{"choices":[{"message":{"content":"', CHUNK, state.floodBytes);
				}
				res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
				const content = JSON.stringify({ label: 'genuine_followup', rationale: 'ok' });
				return res.end(
					JSON.stringify({
						choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }]
					})
				);
			}
			if (url.startsWith('/v1/completions')) {
				if (h === 'flood-error') {
					res.writeHead(500, { ...CORS, 'content-type': 'text/html' });
					return flood(res, '<html>', CHUNK, state.floodBytes);
				}
				const text = 'Why?<|im_end|>';
				if (request.stream !== true) {
					res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
					return res.end(JSON.stringify({ choices: [{ index: 0, text, finish_reason: 'stop' }] }));
				}
				res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream' });
				if (h === 'trickle-stream') {
					const timer = setInterval(() => res.write(tokenEvent(' and')), state.trickleMs);
					res.on('close', () => clearInterval(timer));
					return;
				}
				if (h === 'flood-stream')
					return flood(res, '', Buffer.from(tokenEvent(' word').repeat(200)), state.floodBytes);
				if (h === 'flood-line')
					return flood(res, 'data: {"choices":[{"text":"', CHUNK, state.floodBytes);
				res.write(tokenEvent(text));
				res.write(
					`data: ${JSON.stringify({ choices: [{ index: 0, text: '', finish_reason: 'stop' }] })}\n\n`
				);
				return res.end('data: [DONE]\n\n');
			}
			res.writeHead(404, CORS);
			res.end('{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}');
		})();
	});
	state.base = server.base;
	state.close = server.close;
	return state;
}
