import { EVOLUTION_2_4 } from '../../../shared/serverVersion';
import { returnAllProperties } from '../fields';
import { countedPage } from '../pages';
import type { Operation } from '../types';

interface ChannelPage {
	records?: unknown;
	pages?: unknown;
	currentPage?: unknown;
}

export const getManyChannels: Operation = {
	resource: 'chat',
	value: 'getManyChannels',
	name: 'Get Many Channels',
	action: 'Get many channels',
	description: 'List the channels (newsletters) the instance has messages from, most recent first (Evolution API 2.4)',
	v2Only: true,
	minServerVersion: EVOLUTION_2_4,
	properties: returnAllProperties(),
	path: '/chat/findChannels',
	buildBody: () => ({}),
	pagination: {
		pageSize: 50,
		// The server numbers pages by `limit` (its page size), from 1.
		page: (request, page, pageSize) => ({ ...request, body: { ...request.body, page, limit: pageSize } }),
		records: (response) => countedPage(response as ChannelPage | null),
	},
};
