import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { recipientProperty } from '../fields';
import type { ItemParameters } from '../parameters';
import { INSTANCE_WEBHOOK } from '../requests';
import type { Operation } from '../types';
import { chatReplyRequest } from './sendAndWait/chatReply';
import { approvalSettings, formSettings, responseTypeOf, sendAndWaitProperties } from './sendAndWait/settings';
import type { Fail, ReadParameter } from './sendAndWait/settings';
import { waitTillOf } from './sendAndWait/waitLimit';

/** The longest question: the links follow it in a WhatsApp text, which holds about 65,000 characters. */
const MAX_MESSAGE_LENGTH = 60_000;

/** One answer link of the message: a bold label, then the address on its own line. */
function linkLine(label: string, url: string): string {
	return `*${label}:*\n${url}`;
}

/**
 * The message: the question, then the link(s) to n8n's waiting page. Links go in the text,
 * since WhatsApp through Baileys shows URL buttons on some clients only.
 */
export function sendAndWaitText(params: ItemParameters, resumeUrl: (query: Record<string, string>) => string): string {
	const read: ReadParameter = (name) => params.raw<unknown>(name);
	const fail: Fail = (label, problem) => params.fail(label, problem);
	const message = params.text('message').trim();
	if (message.length > MAX_MESSAGE_LENGTH) params.fail(params.label('message'), `is longer than ${MAX_MESSAGE_LENGTH} characters`);
	const responseType = responseTypeOf(read, fail);
	const links: string[] = [];
	if (responseType === 'chatReply') return message;
	if (responseType === 'approval') {
		const approval = approvalSettings(read, fail);
		links.push(linkLine(approval.approveLabel, resumeUrl({ approved: 'true' })));
		if (approval.double) links.push(linkLine(approval.declineLabel, resumeUrl({ approved: 'false' })));
	} else {
		// The form is built from these settings when the link is opened: checked now, before sending.
		const form = formSettings(responseType, message, read, fail);
		links.push(linkLine(form.messageButtonLabel, resumeUrl({ approved: 'true' })));
	}
	return [message, ...links].join('\n\n');
}

export const sendAndWait: Operation = {
	resource: 'message',
	value: SEND_AND_WAIT_OPERATION,
	name: 'Send and Wait for Response',
	action: 'Send message and wait for response',
	description: 'Send a message and pause the workflow until the recipient answers, through a link or in the chat',
	properties: [recipientProperty(), ...sendAndWaitProperties],
	path: '/message/sendText',
	// Reply in the Chat reads the instance's webhook to find its trigger (sendAndWait/chatReply.ts).
	helpers: { webhook: INSTANCE_WEBHOOK },
	buildRequest: async (params, dialect, run) => {
		if (params.raw<unknown>('responseType') === 'chatReply') return await chatReplyRequest(params, dialect, run, waitTillOf(params));
		// No link preview: to build one the server fetches the first link of the text.
		return { body: { number: params.recipient('number'), text: sendAndWaitText(params, run.resumeUrl), linkPreview: false } };
	},
	waitsForAnswer: (params) => waitTillOf(params),
};
