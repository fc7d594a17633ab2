import { EVOLUTION_2_4 } from '../../../shared/serverVersion';
import { messageKeyProperties } from '../fields';
import type { Operation } from '../types';

export const getPollVotes: Operation = {
	resource: 'message',
	value: 'getPollVotes',
	name: 'Get Poll Votes',
	action: 'Get the votes of a poll',
	description: 'Count the votes of a poll the server stored: each option with its votes and voters (Evolution API 2.4)',
	v2Only: true,
	minServerVersion: EVOLUTION_2_4,
	// The poll's chat and ID; who sent it does not matter to the server.
	properties: messageKeyProperties('of the poll (as Send Poll outputs it in key.id)').filter((property) => property.name !== 'fromMe'),
	path: '/chat/getPollVote',
	buildBody: (params) => ({
		message: { key: { id: params.text('messageId').trim() } },
		// The server matches votes by the chat's JID (`jidNormalizedUser`), which is empty for bare digits.
		remoteJid: params.chatJid('remoteJid'),
	}),
};
