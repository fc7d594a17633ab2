/** /instance/*: routes about instances (no `{instance}` in the path for the list). */
import type { RouteDef } from '../types';
import { UNAUTHORIZED, sameSecret } from '../http';
import { accountOf } from './account';

export const instanceRoutes: RouteDef[] = [
	{
		// v2 servers list their instances for the global key (or, for an instance token, that
		// instance alone); credential tests use it.
		method: 'GET',
		path: { v2: '/instance/fetchInstances' },
		auth: 'reply',
		reply: ({ instances, apikey, globalKey }) => {
			const all = instances();
			const visible = sameSecret(apikey, globalKey) ? all : all.filter((inst) => sameSecret(apikey, inst.token));
			if (visible.length === 0) return UNAUTHORIZED;
			return { status: 200, body: visible.map((inst) => ({ id: inst.instanceId, name: inst.name, connectionStatus: accountOf(inst).state, ownerJid: inst.jid, token: inst.token })) };
		},
	},
];
