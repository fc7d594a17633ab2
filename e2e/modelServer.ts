/**
 * A scripted OpenAI-compatible model server on loopback, for the AI-agent check (l): n8n's
 * OpenAI Chat Model (LangChain's ChatOpenAI, "Use Responses API" off) posts
 * `/v1/chat/completions` here, and a script decides each answer — a tool call or a final
 * text — from the request (its messages and the tools offered). Every request is recorded
 * as received (method, path, headers, parsed body), so a test can read what the model saw:
 * the tools' names, descriptions and JSON schemas, and the tool results the agent sent back.
 *
 * Answers `stream: false` with one `chat.completion` and `stream: true` with
 * `chat.completion.chunk` server-sent events ending in `data: [DONE]`. `GET /v1/models`
 * (the credential test) lists one model. Node built-ins only.
 */
import * as http from 'node:http';

/** One tool as the model sees it: `tools[i].function` of a chat-completions request. */
export interface OfferedTool {
	name: string;
	description?: string;
	parameters?: { type?: string; properties?: Record<string, { type?: string; description?: string }>; required?: string[] };
}

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | string;
	content?: unknown;
	tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: Array<{ type: string; function: OfferedTool }>;
	stream?: boolean;
	[key: string]: unknown;
}

export interface RecordedRequest {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** The body as text, exactly as received. */
	raw: string;
	/** The parsed JSON body, or undefined. */
	body?: ChatRequest;
	/** What the script answered (chat completions only). */
	answer?: Turn;
}

/** One scripted answer: call a tool with these arguments, or say this text. */
export type Turn = { tool: string; args: Record<string, unknown> } | { content: string };

export interface ModelServer {
	/** The base URL to give the OpenAI credential (`…/v1`). */
	url: string;
	requests: RecordedRequest[];
	/** The chat-completions requests, in order. */
	chats(): RecordedRequest[];
	close(): Promise<void>;
}

export const MODEL_ID = 'scripted-model';

/** Text of a message's content (a string, or the text parts of a list). */
export function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content.map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : '')).join('');
	}
	return '';
}

function completion(turn: Turn, seq: number): Record<string, unknown> {
	const message =
		'tool' in turn
			? {
					role: 'assistant',
					content: null,
					tool_calls: [{ id: `call_${seq}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.args) } }],
				}
			: { role: 'assistant', content: turn.content };
	return {
		id: `chatcmpl-${seq}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: MODEL_ID,
		choices: [{ index: 0, message, logprobs: null, finish_reason: 'tool' in turn ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
	};
}

/** The same answer as server-sent chunks: the role, the content or tool call, the finish reason. */
function chunks(turn: Turn, seq: number, withUsage: boolean): Array<Record<string, unknown>> {
	const base = { id: `chatcmpl-${seq}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: MODEL_ID };
	const delta = (d: Record<string, unknown>, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta: d, logprobs: null, finish_reason: finish }] });
	const out: Array<Record<string, unknown>> = [delta({ role: 'assistant', content: '' })];
	if ('tool' in turn) {
		out.push(delta({ tool_calls: [{ index: 0, id: `call_${seq}`, type: 'function', function: { name: turn.tool, arguments: '' } }] }));
		out.push(delta({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(turn.args) } }] }));
		out.push(delta({}, 'tool_calls'));
	} else {
		out.push(delta({ content: turn.content }));
		out.push(delta({}, 'stop'));
	}
	if (withUsage) out.push({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
	return out;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
	res.end(text);
}

/**
 * Starts the server on 127.0.0.1:`port`. `script` answers each chat request; an exception in
 * it becomes a 500 with its message (LangChain then retries, and the run fails readably).
 */
export function startModelServer(script: (request: ChatRequest) => Turn, port: number): Promise<ModelServer> {
	const requests: RecordedRequest[] = [];
	let seq = 0;
	const server = http.createServer((req, res) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (c: string) => (raw += c));
		req.on('end', () => {
			const path = (req.url ?? '/').split('?')[0];
			const record: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, raw };
			requests.push(record);
			try {
				record.body = raw ? (JSON.parse(raw) as ChatRequest) : undefined;
			} catch {
				/* not JSON: recorded as raw */
			}
			if (req.method === 'GET' && path === '/v1/models') {
				return send(res, 200, { object: 'list', data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'e2e' }] });
			}
			if (req.method !== 'POST' || path !== '/v1/chat/completions') {
				return send(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
			}
			if (!record.body || !Array.isArray(record.body.messages)) {
				return send(res, 400, { error: { message: 'messages is required', type: 'invalid_request_error' } });
			}
			let turn: Turn;
			try {
				turn = script(record.body);
			} catch (e) {
				return send(res, 500, { error: { message: `script: ${e instanceof Error ? e.message : String(e)}`, type: 'server_error' } });
			}
			record.answer = turn;
			seq++;
			if (!record.body.stream) return send(res, 200, completion(turn, seq));
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
			const withUsage = (record.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
			for (const chunk of chunks(turn, seq, withUsage)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
			res.end('data: [DONE]\n\n');
		});
	});
	return new Promise((resolve, reject) => {
		server.on('error', reject);
		server.listen(port, '127.0.0.1', () => {
			resolve({
				url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`,
				requests,
				chats: () => requests.filter((r) => r.path === '/v1/chat/completions' && r.method === 'POST'),
				close: () =>
					new Promise<void>((done) => {
						server.closeAllConnections();
						server.close(() => done());
					}),
			});
		});
	});
}
