/**
 * The one dispatcher of the interface's routes: finds the table entry (./routes) for a request
 * and runs the real servers' order of checks for it. Nothing here knows a particular route.
 */
import type { Body, ChatEntry, Dialect, Instance, RecordedRequest, Reply, RouteContext, RouteDef, ServerState } from './types';
import { validate, type Schema } from './validate';
import { UNAUTHORIZED, badRequest, errorBody, notFound, sameSecret } from './http';
import { hasAccount, numberCheck, toJid } from './messages';
import type { MediaStore } from './media';
import { ServerVersion, atLeast, schemaAt } from './versions';

/** What the dispatcher needs of the running sandbox. */
export interface DispatchHost {
	readonly dialect: Dialect;
	readonly version: ServerVersion;
	readonly apiKey: string;
	readonly maxDelayMs: number;
	instance(name: string): Instance | undefined;
	instances(): Instance[];
	/** an injected failure (failNext) for this path, or at `send` WhatsApp's refusal of a send (refuseSends), consumed */
	takeFailure(path: string, stage?: 'route' | 'send'): { status: number; message: string } | undefined;
	sleep(ms: number): Promise<void>;
	addChat(e: Omit<ChatEntry, 'seq' | 'at' | 'time'>): void;
	emit(inst: Instance, event: string, data: unknown): void;
	readonly server: ServerState;
	readonly media: MediaStore;
}

interface Compiled {
	def: RouteDef;
	/** the v2 body schema as this release checks it */
	schema?: Schema;
	pattern: RegExp;
	hasInstance: boolean;
}

/** `{instance}` and `{id}` (an id the real router reads from the path, e.g. `fetch/:typebotId`) become named groups. */
function compile(def: RouteDef, template: string): Compiled {
	const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const pattern = template
		.split(/(\{instance\}|\{id\})/)
		.map((part) => (part === '{instance}' ? '(?<instance>[^/]+)' : part === '{id}' ? '(?<id>[^/]+)' : escape(part)))
		.join('');
	return { def, pattern: new RegExp(`^${pattern}/?$`), hasInstance: template.includes('{instance}') };
}

export type Dispatch = (record: RecordedRequest) => Promise<Reply>;

export function createDispatcher(routes: readonly RouteDef[], host: DispatchHost): Dispatch {
	const table: Compiled[] = [];
	for (const def of routes) {
		const template = def.path[host.dialect];
		if (template === undefined || (def.since && !atLeast(host.version, def.since))) continue;
		const compiled = compile(def, template);
		const schema = def.schema?.[host.dialect];
		compiled.schema = schema && host.dialect === 'v2' ? schemaAt(host.version, template, schema) : schema;
		table.push(compiled);
	}

	return async (record) => {
		const { method, path } = record;
		// 1. the route exists
		let found: { route: Compiled; name?: string; id?: string } | undefined;
		for (const route of table) {
			if (route.def.method !== method) continue;
			const m = route.pattern.exec(path);
			if (m) {
				found = { route, name: m.groups?.instance, id: m.groups?.id };
				break;
			}
		}
		if (!found) return notFound(`Cannot ${method} ${path}`);
		const { def, hasInstance } = found.route;
		const auth = def.auth ?? (hasInstance ? 'instance' : 'global');
		const given = record.headers['apikey'];

		// injected failures (failNext) answer before anything else the server checks
		const failure = auth === 'reply' ? undefined : host.takeFailure(path);
		if (failure) return { status: failure.status, body: errorBody(failure.status, failure.message) };

		// 2. the instance exists (even with a missing or wrong key)
		let inst: Instance | undefined;
		if (found.name !== undefined) {
			let name = found.name;
			try {
				name = decodeURIComponent(name);
			} catch {
				// keep it as it came
			}
			inst = host.instance(name);
			if (!inst) return notFound(`The "${name}" instance does not exist`);
		}
		// 3. the apikey: the global key, or for instance routes the instance's own token
		if (auth !== 'reply' && !sameSecret(given, host.apiKey) && !(auth === 'instance' && inst && sameSecret(given, inst.token))) {
			return UNAUTHORIZED;
		}
		// 4. the JSON body; without a JSON content type the body parser leaves the body empty
		let body: Body = {};
		if (method !== 'GET' && /\bjson\b/i.test(record.headers['content-type'] ?? '')) {
			if (record.rawBody.trim() !== '') {
				try {
					body = JSON.parse(record.rawBody);
				} catch (err: unknown) {
					return badRequest([err instanceof Error ? err.message : 'Unexpected end of JSON input']);
				}
			}
			record.body = body;
		}
		// 5. the schemas (a type error on the body itself reads "instance is not of a type(s) object")
		const querySchema = def.querySchema?.[host.dialect];
		const schema = found.route.schema;
		const errors = [...(querySchema ? validate(record.query, querySchema) : []), ...(schema ? validate(body, schema) : [])];
		if (errors.length > 0) {
			if (def.validationShape === 'thrown') return { status: 400, body: { status: 400, error: 'Bad Request', message: [errors] } };
			return badRequest([errors]);
		}
		// 6. the service layer: checks beyond the schema, then the "has an account" check
		const problem = def.check?.(body, host.dialect, host.version);
		if (problem) return badRequest([problem]);
		if (def.needsAccount && !hasAccount(body.number)) return badRequest([numberCheck(String(body.number))]);
		// 7. WhatsApp itself: a send the server passed on may be refused (rate-overlimit, a closed connection)
		const refused = host.takeFailure(path, 'send');
		if (refused) return { status: refused.status, body: errorBody(refused.status, refused.message) };
		const delay = def.delayOf ? def.delayOf(body, host.dialect) : (body as { delay?: unknown } | undefined)?.delay;
		if (typeof delay === 'number') {
			const held = Math.min(delay, host.maxDelayMs);
			// The server shows the contact "typing…" ("recording…" before a voice note) while it holds a send.
			if (held > 0 && path.startsWith('/message/send') && inst && typeof body?.number === 'string') {
				const presence = path.startsWith('/message/sendWhatsAppAudio') ? 'recording' : 'composing';
				host.addChat({ direction: 'out', instance: inst.name, chat: toJid(body.number), kind: 'presence', text: `${presence} (${held} ms)`, body: { presence } });
			}
			await host.sleep(held);
		}

		const current = inst as Instance;
		let pathId = found.id;
		if (pathId !== undefined) {
			try {
				pathId = decodeURIComponent(pathId);
			} catch {
				// keep it as it came
			}
		}
		const ctx: RouteContext = {
			pathId,
			dialect: host.dialect,
			v2: host.dialect === 'v2',
			version: host.version,
			chosenMessageId:
				def.messageIdSince && atLeast(host.version, def.messageIdSince) && typeof body.messageId === 'string' && body.messageId !== ''
					? body.messageId
					: undefined,
			inst: current,
			body,
			query: record.query,
			apikey: given,
			globalKey: host.apiKey,
			instances: () => host.instances(),
			out: (kind, chat, text, id, extra) =>
				host.addChat({
					direction: 'out',
					instance: current.name,
					chat,
					kind,
					text,
					body: extra?.body ?? body,
					messageId: id,
					...(extra?.media ? { media: extra.media } : {}),
				}),
			media: host.media,
			emit: (event, data) => host.emit(current, event, data),
			server: host.server,
		};
		return def.reply(ctx);
	};
}
