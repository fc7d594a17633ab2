/**
 * The instance's proxy on 2.3.7 / 2.4 (`proxy.router.ts`, its schema, controller and
 * service). One entry per route, like the other files of this folder.
 */
import { badRequest } from '../http';
import { bool, str } from '../schemas';
import type { Instance, RouteDef } from '../types';
import { notEmpty } from './profile';
import { cuid, now } from './records';

interface ProxyRecord extends Record<string, unknown> {
	enabled: boolean;
	host: string;
	port: string;
	protocol: string;
	username: string;
	password: string;
}
const proxies = new WeakMap<Instance, ProxyRecord & { id: string; createdAt: string; updatedAt: string; instanceId: string }>();

/** The protocols the server's proxy agent knows; any other fails its test of the proxy. */
const PROXY_PROTOCOLS = ['http', 'socks', 'socks5'];

export const proxyRoutes: RouteDef[] = [
	{
		method: 'POST',
		path: { v2: '/proxy/set/{instance}' },
		schema: {
			v2: {
				type: 'object',
				properties: { enabled: bool, host: str, port: str, protocol: str, username: str, password: str },
				required: ['enabled', 'host', 'port', 'protocol'],
				when: [notEmpty('enabled', 'host', 'port', 'protocol')],
			},
		},
		reply: (ctx) => {
			const data = { ...ctx.body } as ProxyRecord;
			if (!data.enabled) Object.assign(data, { host: '', port: '', protocol: '', username: '', password: '' });
			// the controller tests the proxy through icanhazip.com; the sandbox fails the protocols the agent cannot make
			if (data.host && !PROXY_PROTOCOLS.includes(data.protocol)) return badRequest(['Invalid proxy']);
			// a record is saved only with a user name and a password (both may be ""); the answer is 201 either way
			if (typeof data.username === 'string' && typeof data.password === 'string') {
				const known = proxies.get(ctx.inst);
				proxies.set(ctx.inst, {
					id: known?.id ?? cuid('proxy', ctx.inst.instanceId),
					enabled: data.enabled === true,
					host: data.host,
					port: data.port,
					protocol: data.protocol,
					username: data.username,
					password: data.password,
					createdAt: known?.createdAt ?? now(),
					updatedAt: now(),
					instanceId: ctx.inst.instanceId,
				});
			}
			return { status: 201, body: { proxy: { instanceName: ctx.inst.name, proxy: data } } };
		},
	},
	{
		method: 'GET',
		path: { v2: '/proxy/find/{instance}' },
		reply: (ctx) => ({ status: 200, body: proxies.get(ctx.inst) ?? null }),
	},
];
