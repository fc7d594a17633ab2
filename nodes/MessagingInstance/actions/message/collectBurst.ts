import type { IDataObject } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';
import type { Exchange, Operation } from '../types';
import { burstItem, decided, judge, type BurstRules } from './collectBurst/burst';
import { MAX_SILENT_MINUTES, personWithin, windowRead } from './collectBurst/silence';
import { chatQuery, findById, readChat, ReadMessages, type AskFindMessages } from '../../../shared/chatHistory';

/**
 * Seconds a run waits beyond `quietSeconds` before it reads the chat: a message the contact
 * sent just inside the quiet time may reach the server a moment later, and the server stamps
 * messages in whole seconds. Without this margin a run could answer a burst whose next
 * message was already on its way.
 */
export const SETTLE_SECONDS = 2;

/** The run's own message not stored yet (another process, a slow database): asked again this often, this far apart. */
export const FIND_TRIES = 4;
export const FIND_RETRY_MS = 1_000;

/** Longest quiet time: a waiting run holds an n8n worker slot. */
const MAX_QUIET_SECONDS = 600;
const MAX_WAIT_SECONDS = 3_600;

interface BurstParameters extends BurstRules {
	chatId: string;
	messageId: string;
	/** No output while a person wrote in the chat within this many minutes (0: off). */
	silentAfterPersonMinutes: number;
}

function readParameters(params: ItemParameters): BurstParameters {
	const raw = params.recipient('chatId', true).trim();
	const chatId = /^\d+$/.test(raw) ? `${raw}@s.whatsapp.net` : raw;
	if (chatId === '') params.fail(params.label('chatId'), 'is required', 'Put Collect Burst right after the Messaging Instance Trigger: its chatId is the default.');
	const messageId = params.identifier('messageId').trim();
	const quietSeconds = params.number('quietSeconds', { min: 0, max: MAX_QUIET_SECONDS });
	const maxWaitSeconds = params.number('maxWaitSeconds', { min: 1, max: MAX_WAIT_SECONDS });
	const options = params.collection('options');
	const silentAfterPersonMinutes =
		options.silentAfterPersonMinutes === undefined
			? 0
			: params.checkNumber(options.silentAfterPersonMinutes, params.label('options.silentAfterPersonMinutes'), { min: 0, max: MAX_SILENT_MINUTES });
	return { chatId, messageId, quietSeconds, maxWaitSeconds, silentAfterPersonMinutes };
}

/** Reads the chat until the run's burst is decided: by the chat's JID, and by the LID where the server stored the message under it (2.3.6). */
async function readHistory(exchange: Exchange, params: ItemParameters, burst: BurstParameters): Promise<ReadMessages> {
	const fail = (problem: string): never => params.fail('Find Messages', problem, 'Check the Base URL and the dialect of the credential.');
	const ask: AskFindMessages = async (body) => await exchange.helper('history', { body });
	for (let attempt = 1; ; attempt++) {
		const read = new ReadMessages();
		const enough = () => decided(read.all(), burst.messageId, burst) && windowRead(read.all(), burst.messageId, burst.silentAfterPersonMinutes);
		await readChat(ask, burst.chatId, read, enough, fail);
		if (!read.has(burst.messageId)) {
			const own = await findById(ask, burst.messageId, fail);
			if (own && !own.chatJids.includes(burst.chatId)) {
				params.fail(params.label('messageId'), `is a message of the chat ${own.chatJids[0]}, not of ${burst.chatId}`, 'Set Chat ID and Message ID from the same trigger item: {{ $json.chatId }} and {{ $json.messageId }}.');
			}
			if (own) {
				// 2.3.6 filters on remoteJid alone: a contact known by LID is stored under the LID.
				for (const jid of own.chatJids.filter((other) => other !== burst.chatId)) await readChat(ask, jid, read, enough, fail);
				// Buried under more new messages than the pages read: its own record still decides.
				if (!read.has(burst.messageId)) read.put(own);
			}
		}
		if (read.has(burst.messageId)) return read;
		if (attempt >= FIND_TRIES) {
			params.fail(
				params.label('messageId'),
				`is not among the messages the server stored for ${burst.chatId} (asked ${FIND_TRIES} times, ${(FIND_TRIES - 1) * (FIND_RETRY_MS / 1000)} s apart)`,
				'Collect Burst reads the chat from the server: it must save incoming messages (DATABASE_SAVE_DATA_NEW_MESSAGE=true), and Message ID must be the trigger\'s {{ $json.messageId }}.',
			);
		}
		await exchange.pause(FIND_RETRY_MS);
	}
}

async function collect(params: ItemParameters, exchange: Exchange): Promise<IDataObject[]> {
	const burst = readParameters(params);
	const read = await readHistory(exchange, params, burst);
	const verdict = judge(read.all(), burst.messageId, burst);
	if (verdict.kind !== 'burst') return [];
	// A person is answering in the chat: this run outputs nothing (no failure), the next burst after their silence is answered.
	if (personWithin(read.all(), verdict.burst[verdict.burst.length - 1], burst.silentAfterPersonMinutes)) return [];
	return [burstItem(verdict.burst, burst.chatId)];
}

export const collectBurst: Operation = {
	resource: 'message',
	value: 'collectBurst',
	name: 'Collect Burst',
	action: 'Collect a burst of messages',
	description:
		'Wait until the contact stops writing, then output all the messages of their burst as one item; the runs of the burst\'s earlier messages output nothing',
	v2Only: true,
	properties: [
		{
			displayName: 'Chat ID',
			name: 'chatId',
			type: 'string',
			required: true,
			default: '={{ $json.chatId }}',
			description: 'The chat of the message: the trigger outputs it as chatId (a group, or the contact\'s phone JID)',
		},
		{
			displayName: 'Message ID',
			name: 'messageId',
			type: 'string',
			required: true,
			default: '={{ $json.messageId }}',
			description: 'The message that started this run: the trigger outputs it as messageId',
		},
		{
			displayName: 'Quiet Seconds',
			name: 'quietSeconds',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_QUIET_SECONDS },
			default: 8,
			description:
				'How long the contact must stay silent before the burst is answered. 8 s covers typing the next short message; raise it when contacts send voice notes after a text. The run waits this plus 2 s.',
		},
		{
			displayName: 'Max Wait Seconds',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
			default: 60,
			description: 'The longest a burst grows: a contact who keeps writing gets an answer for every this many seconds of messages',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Silent After Person (Minutes)',
					name: 'silentAfterPersonMinutes',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: MAX_SILENT_MINUTES },
					default: 0,
					description:
						"Hand over to a person: no output while the account's owner or an agent wrote in the chat (on a phone or WhatsApp Desktop) within this many minutes of the contact's last message. The workflow's own replies never count. 0 turns it off. See the docs for what counts as a person on each server version.",
				},
			],
		},
	],
	path: '/chat/findMessages',
	// Every read of the chat goes through the router's door: a page of message records, the chat's.
	helpers: { history: { name: 'The read of the chat (Find Messages)', method: 'POST', routes: ['/chat/findMessages'], answer: 'page', pageField: 'messages', belongs: 'chat', unlessAnswered: 'nothing was output' } },
	buildRequest: (params) => ({ body: chatQuery(readParameters(params).chatId, 1) }),
	waitsBeforeRequest: (params) => (readParameters(params).quietSeconds + SETTLE_SECONDS) * 1_000,
	readAnswer: async (params, _request, exchange) => await collect(params, exchange),
};
