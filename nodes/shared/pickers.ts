import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { boundedListReader, type BoundedList } from './boundedList';
import { Redactor, secretsIn, secretsOfUrl } from './redact';
import { chatbotListRoute, recordsOf, ROUTES, type Route } from './routes';
import { apiRequest, openConnection } from './transport';

/**
 * The lists behind the Instance, Group and Label pickers, read from the server with the
 * node's credential. A typed value or an expression works as well: these only offer choices.
 */

/** At most this many entries are offered; the search narrows them. */
const MAX_ENTRIES = 200;

/**
 * At most this many records of the server's list are looked at: a list of a million entries
 * costs the same as one of this many, and the search narrows what is shown.
 */
const MAX_SCANNED = 10_000;

/**
 * At most this much of the server's answer is read: past it the rest is never received, and
 * the entries read so far are offered.
 */
export const MAX_LIST_BYTES = 4 * 1024 * 1024;

/** Longer texts are cut in a label. */
const MAX_LABEL_LENGTH = 200;

function matches(filter: string | undefined, ...texts: string[]): boolean {
	if (!filter) return true;
	const wanted = filter.toLowerCase();
	return texts.some((text) => text.toLowerCase().includes(wanted));
}

/** A name or id as text: strings as they are, numbers written out; anything else (an object, whatever its `toString`) is no text. */
function textOf(value: unknown): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return '';
}

/** The instance the node is set to, for the lists of one instance. */
function currentInstance(ctx: ILoadOptionsFunctions): string {
	const value = ctx.getCurrentNodeParameter('instance', { extractValue: true });
	return typeof value === 'string' ? value.trim() : '';
}

/** A list's records, and the redaction its labels go through. */
interface Listed {
	records: IDataObject[];
	/** Hides the API key and every secret the list holds (a bot's key, a credential's) wherever a label repeats it. */
	redactor: Redactor;
}

/**
 * The records of a list route, read with the node's credential: at most `MAX_LIST_BYTES` of
 * the answer and `MAX_SCANNED` of its records. A label is the server's text and is saved with
 * the workflow: it goes through the same redaction as an output item.
 */
async function readList(ctx: ILoadOptionsFunctions, route: Route, instance?: string, qs?: IDataObject): Promise<Listed> {
	const connection = await openConnection(ctx);
	const list = (await apiRequest(ctx, connection, {
		method: route.method,
		route: route.path,
		instance,
		qs,
		readAnswer: boundedListReader(MAX_LIST_BYTES, MAX_SCANNED),
	})) as BoundedList;
	if (list.unreadable) {
		throw new NodeOperationError(
			ctx.getNode(),
			list.cut ? `The server's list is too large to show (over ${MAX_LIST_BYTES / 1024 / 1024} MB)` : 'The server\'s list could not be read as JSON',
			{ description: 'Type the name or ID instead of picking it from the list.' },
		);
	}
	const answer = list.value;
	const records = recordsOf(Array.isArray(answer) ? answer.slice(0, MAX_SCANNED) : answer);
	return { records, redactor: new Redactor([connection.apiKey, ...secretsOfUrl(connection.baseUrl), ...secretsIn(records)]) };
}

/** Entries with a name and a value, the first `MAX_ENTRIES` that the filter keeps, sorted by name; names without secrets. */
function result(list: Listed, entries: Iterable<INodeListSearchItems | undefined>): INodeListSearchResult {
	const results: INodeListSearchItems[] = [];
	for (const entry of entries) {
		if (!entry) continue;
		results.push({ ...entry, name: list.redactor.text(entry.name).slice(0, MAX_LABEL_LENGTH) });
		if (results.length === MAX_ENTRIES) break;
	}
	return { results: results.sort((a, b) => a.name.localeCompare(b.name)) };
}

export async function searchInstances(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instances = await readList(this, ROUTES.listInstances);
	return result(
		instances,
		instances.records.map((entry) => {
			const name = textOf(entry.name) || textOf(entry.instanceName);
			if (name === '' || !matches(filter, name)) return undefined;
			const status = textOf(entry.connectionStatus);
			return { name: status !== '' ? `${name} (${status})` : name, value: name };
		}),
	);
}

export async function searchGroups(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instance = currentInstance(this);
	if (instance === '') return { results: [] };
	const groups = await readList(this, ROUTES.listGroups, instance, { getParticipants: 'false' });
	return result(
		groups,
		groups.records.map((group) => {
			const id = typeof group.id === 'string' ? group.id : '';
			const subject = textOf(group.subject);
			if (id === '' || !matches(filter, subject, id)) return undefined;
			return { name: subject || id, value: id };
		}),
	);
}

export async function searchLabels(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instance = currentInstance(this);
	if (instance === '') return { results: [] };
	const labels = await readList(this, ROUTES.listLabels, instance);
	return result(
		labels,
		labels.records.map((label) => {
			const id = textOf(label.id);
			const name = textOf(label.name);
			if (id === '' || !matches(filter, name)) return undefined;
			return { name: name || id, value: id };
		}),
	);
}

/** The text of a current parameter (a picker's chosen or typed value), trimmed; '' when unset. */
function currentText(ctx: ILoadOptionsFunctions, name: string): string {
	try {
		return textOf(ctx.getCurrentNodeParameter(name, { extractValue: true })).trim();
	} catch {
		return '';
	}
}

/** The bots of the chosen platform on the chosen instance, by description. */
export async function searchChatbots(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instance = currentInstance(this);
	const kind = currentText(this, 'kind');
	// The platform is one of the node's own values, never a path of its own.
	if (instance === '' || !/^[A-Za-z0-9]+$/.test(kind)) return { results: [] };
	const bots = await readList(this, chatbotListRoute(kind), instance);
	return result(
		bots,
		bots.records.map((bot) => {
			const id = textOf(bot.id);
			const description = textOf(bot.description);
			if (id === '' || !matches(filter, description, id)) return undefined;
			const trigger = textOf(bot.triggerType);
			const label = description || id;
			return { name: trigger !== '' ? `${label} (${trigger}${bot.enabled === false ? ', disabled' : ''})` : label, value: id };
		}),
	);
}

/** The OpenAI credentials stored on the chosen instance, by name (never their keys). */
export async function searchOpenAiCredentials(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instance = currentInstance(this);
	if (instance === '') return { results: [] };
	const credentials = await readList(this, ROUTES.listOpenAiCredentials, instance);
	return result(
		credentials,
		credentials.records.map((credential) => {
			const id = textOf(credential.id);
			const name = textOf(credential.name);
			if (id === '' || !matches(filter, name, id)) return undefined;
			return { name: name || id, value: id };
		}),
	);
}

/** The templates of a Cloud API instance as Meta lists them; none for another instance (its server answers no list). */
async function templates(ctx: ILoadOptionsFunctions, filter: string | undefined, valueOf: (template: IDataObject) => string): Promise<INodeListSearchResult> {
	const instance = currentInstance(ctx);
	if (instance === '') return { results: [] };
	const list = await readList(ctx, ROUTES.listTemplates, instance);
	return result(
		list,
		list.records.map((template) => {
			const name = textOf(template.name);
			const value = valueOf(template);
			if (name === '' || value === '' || !matches(filter, name)) return undefined;
			const details = [textOf(template.language), textOf(template.status)].filter((text) => text !== '').join(', ');
			return { name: details !== '' ? `${name} (${details})` : name, value };
		}),
	);
}

/** The models the chosen OpenAI credential may use (the settings' credential when none is chosen). */
export async function searchOpenAiModels(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const instance = currentInstance(this);
	if (instance === '') return { results: [] };
	const credential = currentText(this, 'openaiCredsId');
	const models = await readList(this, ROUTES.listOpenAiModels, instance, credential === '' ? undefined : { openaiCredsId: credential });
	return result(
		models,
		models.records.map((model) => {
			const id = textOf(model.id);
			if (id === '' || !matches(filter, id)) return undefined;
			return { name: id, value: id };
		}),
	);
}

/** Templates by name (what a send and a delete name). */
export async function searchTemplates(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await templates(this, filter, (template) => textOf(template.name));
}

/** Templates by Meta's ID (what an edit names). */
export async function searchTemplateIds(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await templates(this, filter, (template) => textOf(template.id));
}

/** A picker: choose from the server's list, or type the value. */
export function picker(spec: {
	displayName: string;
	name: string;
	description: string;
	searchMethod: 'searchInstances' | 'searchGroups' | 'searchLabels' | 'searchTemplates' | 'searchTemplateIds' | 'searchChatbots' | 'searchOpenAiCredentials' | 'searchOpenAiModels';
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
