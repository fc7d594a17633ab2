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
		reply: ({ instances, apikey, globalKey, query }) => {
			// `?instanceName=` narrows the list to that instance, as the real controller does
			const all = instances().filter((inst) => !query.instanceName || inst.name === query.instanceName);
			const visible = sameSecret(apikey, globalKey) ? all : all.filter((inst) => sameSecret(apikey, inst.token));
			if (visible.length === 0) return UNAUTHORIZED;
			return { status: 200, body: visible.map((inst) => ({ id: inst.instanceId, name: inst.name, connectionStatus: accountOf(inst).state, ownerJid: inst.jid, integration: inst.integration ?? 'WHATSAPP-BAILEYS', token: inst.token })) };
		},
	},
];
