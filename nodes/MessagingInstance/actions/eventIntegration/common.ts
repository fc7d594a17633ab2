import type { ItemParameters } from '../parameters';
import { EVENT_KIND_LABEL, eventBusOf, type EventBus } from './kinds';

export function readEventBus(params: ItemParameters): EventBus {
	const kind = params.text('kind', EVENT_KIND_LABEL).trim();
	const bus = eventBusOf(kind);
	if (!bus) params.fail(EVENT_KIND_LABEL, `is not an event bus this node knows ("${kind.slice(0, 40)}")`);
	return bus as EventBus;
}

/** Whether an answer is the server's "nothing": `null`, or the empty body of a switched-off integration. */
export function isEmptyAnswer(response: unknown): boolean {
	return response === null || response === undefined || response === '' || (typeof response === 'object' && !Array.isArray(response) && Object.keys(response).length === 0);
}
