import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { apiRequest, openConnection } from '../../shared/transport';

/**
 * The lists behind the Instance, Group and Label pickers, read from the server with the
 * node's credential. A typed value or an expression works as well: these only offer choices.
 */

/** At most this many entries are offered; the search narrows them. */
const MAX_ENTRIES = 200;

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const wanted = filter.toLowerCase();
	return texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(wanted));
}

function listOf(response: unknown): IDataObject[] {
	return Array.isArray(response) ? response.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object') : [];
}

/** The instance the node is set to, for the lists of one instance. */
function currentInstance(ctx: ILoadOptionsFunctions): string {
	const value = ctx.getCurrentNodeParameter('instance', { extractValue: true });
	return typeof value === 'string' ? value.trim() : '';
}

async function fetch(ctx: ILoadOptionsFunctions, route: string, instance?: string, qs?: IDataObject): Promise<unknown> {
	const connection = await openConnection(ctx);
	return await apiRequest(ctx, connection, { method: 'GET', route, instance, qs });
}

function result(entries: INodeListSearchItems[]): INodeListSearchResult {
	return { results: entries.slice(0, MAX_ENTRIES).sort((a, b) => a.name.localeCompare(b.name)) };
}

export async function searchInstances(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instances = listOf(await fetch(this, '/instance/fetchInstances'));
	return result(
		instances
			.map((entry) => ({ name: String(entry.name ?? entry.instanceName ?? ''), status: entry.connectionStatus }))
			.filter((entry) => entry.name !== '' && matches(filter, entry.name))
			.map(({ name, status }) => ({ name: typeof status === 'string' ? `${name} (${status})` : name, value: name })),
	);
}

export async function searchGroups(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instance = currentInstance(this);
	if (instance === '') return { results: [] };
	const groups = listOf(await fetch(this, '/group/fetchAllGroups', instance, { getParticipants: 'false' }));
	return result(
		groups
			.filter((group) => typeof group.id === 'string' && matches(filter, group.subject, group.id))
			.map((group) => ({ name: String(group.subject || group.id), value: String(group.id) })),
	);
}

export async function searchLabels(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instance = currentInstance(this);
	if (instance === '') return { results: [] };
	const labels = listOf(await fetch(this, '/label/findLabels', instance));
	return result(
		labels
			.filter((label) => (typeof label.id === 'string' || typeof label.id === 'number') && matches(filter, label.name))
			.map((label) => ({ name: String(label.name || label.id), value: String(label.id) })),
	);
}

/** A picker: choose from the server's list, or type the value. */
export function picker(spec: {
	displayName: string;
	name: string;
	description: string;
	searchMethod: 'searchInstances' | 'searchGroups' | 'searchLabels';
	typedMode: { displayName: string; name: string; placeholder: string };
}): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: spec.searchMethod, searchable: true },
			},
			{ ...spec.typedMode, type: 'string' },
		],
	};
}
