import type { ISupplyDataFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ListShapeError } from '../shared/answerShapes';
import { findById, HISTORY_LIMITS, readChat, type AskFindMessages } from '../shared/chatHistory';
import { operationError } from '../shared/errors';
import { askDeclared, declareHelperReads, HelperAnswerError, type HelperRequest } from '../shared/helperRequests';
import { isGroupJid } from '../shared/messageContent';
import { Redactor, secretsOfUrl } from '../shared/redact';
import { openConnection } from '../shared/transport';
import { HistoryRows, holdsCurrent, turnsOf, type Turn } from './turns';

/** What one memory reads: which chat of which instance, how much of it, and which messages the run answers. */
export interface MemorySettings {
	instance: string;
	/** The chat: a group, or the contact's phone JID (or LID). */
	chatId: string;
	/** Past interactions the agent is given (n8n's Context Window Length). */
	interactions: number;
	/** The messages the run answers: the agent's input, so never its history. */
	current: ReadonlySet<string>;
}

/** The hint wherever the history shows the server keeps no messages. */
export const STORE_HINT =
	'The memory reads the chat from the server, which must save messages: set DATABASE_SAVE_DATA_NEW_MESSAGE=true on the server (and DATABASE_ENABLED=true).';

const FIND_MESSAGES = '/chat/findMessages';

const STORED_PAGE = { method: 'POST', routes: [FIND_MESSAGES], answer: 'page', pageField: 'messages', unlessAnswered: 'the agent got no history' } as const;

/**
 * The memory's reads, declared (shared/helperRequests.ts): sent only through the one door,
 * and taken by the hostile tiers. An answer that is not a page of this chat's messages stops
 * the item; it is never read as "no history".
 */
export const MEMORY_READS = declareHelperReads('messagingInstanceChatMemory', {
	history: { ...STORED_PAGE, name: "The memory's read of the chat (Find Messages)", belongs: 'chat' } satisfies HelperRequest,
	lookUp: { ...STORED_PAGE, name: "The memory's look-up of the message it answers (Find Messages)", belongs: 'message' } satisfies HelperRequest,
});

/** One declared read as the shared history reader takes it: how it asks, and how it stops the item naming the read. */
interface DeclaredRead {
	ask: AskFindMessages;
	fail: (problem: string) => never;
}

/**
 * The chat's conversation before the run's messages, read from the server: the newest pages
 * first, as few as hold the window (at most HISTORY_LIMITS.pages pages per chat JID). A
 * contact known by LID is one contact: where the server stored the run's message under the
 * other JID (2.3.6 filters on `remoteJid` alone), that JID's pages are read too. The model
 * gets no secret of the credential: every text is redacted like an output item.
 */
export async function readTurns(ctx: ISupplyDataFunctions, itemIndex: number, settings: MemorySettings): Promise<Turn[]> {
	const node = ctx.getNode();
	const connection = await openConnection(ctx);
	const redactor = new Redactor([connection.apiKey, ...secretsOfUrl(connection.baseUrl)]);
	try {
		if (!connection.dialect.servesV2Routes) {
			throw operationError(
				node,
				itemIndex,
				`The chat memory reads the chat with Find Messages, which servers of the ${connection.dialect.label} do not have`,
				'Set the credential\'s Server Dialect to "Server v2.x": Evolution API v2 servers store the chats and answer Find Messages.',
			);
		}
		const rows = new HistoryRows();
		const through = (read: HelperRequest): DeclaredRead => ({
			ask: async (body) => {
				// Only an answer of the declared shape is noted.
				const answer = await askDeclared(ctx, connection, read, { route: FIND_MESSAGES, instance: settings.instance, body }, itemIndex);
				rows.noteAnswer(answer);
				return answer;
			},
			fail: (problem) => {
				throw operationError(node, itemIndex, `${read.name} ${problem}`, 'Check the Base URL and the dialect of the credential.');
			},
		});
		const reads = { history: through(MEMORY_READS.history), lookUp: through(MEMORY_READS.lookUp) };
		const isGroup = isGroupJid(settings.chatId);
		const current = settings.current;
		// One turn more than the window: the oldest turn in it is then known to be whole.
		const enough = () => (current.size === 0 || holdsCurrent(rows, current)) && turnsOf(rows, current, isGroup).length > settings.interactions * 2;
		await readChat(reads.history.ask, settings.chatId, rows, enough, reads.history.fail);
		if (current.size > 0 && !holdsCurrent(rows, current)) await readOtherJids(ctx, itemIndex, settings, reads, rows, enough);
		if (rows.all().length === 0) {
			ctx.addExecutionHints({ message: `The server has no stored message of ${settings.chatId}, so the agent got no history. ${STORE_HINT}`, location: 'outputPane' });
		}
		return turnsOf(rows, current, isGroup).map((turn) => ({ role: turn.role, text: redactor.text(turn.text) }));
	} catch (caught) {
		throw redactor.error(
			caught instanceof HelperAnswerError
				? operationError(node, itemIndex, caught.message, 'The server answered with success but not with the page of messages Find Messages gives. Check the Base URL and the dialect of the credential; a proxy or another server may answer this route with something else.')
				: caught instanceof ListShapeError
				? operationError(node, itemIndex, `Find Messages ${caught.problem} from the server`, 'The server answered with success but not with the list of messages this route gives. Check the Base URL and the dialect of the credential.')
				: caught instanceof NodeOperationError || (caught as { name?: string }).name === 'NodeApiError'
					? caught
					: new NodeOperationError(node, caught as Error, { itemIndex }),
		);
	}
}

/**
 * The run's message is not among the chat's newest pages: the server stored it under the
 * contact's other JID (the LID on 2.3.6), or more messages than the pages hold came after it,
 * or it is of another chat, or the server does not store messages. Its own record says which.
 */
async function readOtherJids(
	ctx: ISupplyDataFunctions,
	itemIndex: number,
	settings: MemorySettings,
	reads: { history: DeclaredRead; lookUp: DeclaredRead },
	rows: HistoryRows,
	enough: () => boolean,
): Promise<void> {
	const [messageId] = settings.current;
	const own = await findById(reads.lookUp.ask, messageId, reads.lookUp.fail);
	if (!own) {
		throw operationError(
			ctx.getNode(),
			itemIndex,
			`The message the agent answers (${messageId}) is not among the messages the server stored`,
			`${STORE_HINT} Current Message IDs (in Options) must name the message of this run: the trigger's {{ $json.messageId }} or Collect Burst's messages.`,
		);
	}
	if (!own.chatJids.includes(settings.chatId)) {
		throw operationError(
			ctx.getNode(),
			itemIndex,
			`The message the agent answers (${messageId}) is a message of the chat ${own.chatJids[0]}, not of ${settings.chatId}`,
			'Set Chat ID and the current message from the same item: {{ $json.chatId }} of the trigger or of Collect Burst.',
		);
	}
	for (const jid of own.chatJids.filter((other) => other !== settings.chatId)) await readChat(reads.history.ask, jid, rows, enough, reads.history.fail);
	// Buried under more messages than the pages hold: the history read ends before it anyway.
	if (!rows.has(own.messageId)) rows.put(own);
}

/** The most messages a memory reads of one chat JID: the bound the docs state. */
export const MAX_MESSAGES_READ = HISTORY_LIMITS.pages * HISTORY_LIMITS.pageSize;
