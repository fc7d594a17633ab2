import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryKeyData, IDataObject, IWebhookDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { choiceOf, readReply, RESUMED } from '../../../../shared/chatReply';
import { readAnswers } from './formFields';
import { approvalPage, formPage, PAGE_SECURITY_POLICY, problemPage, recordedPage } from './pages';
import { approvalSettings, chatReplySettings, FREE_TEXT_FIELD, formSettings, responseTypeOf } from './settings';
import type { Fail, ReadParameter } from './settings';

/**
 * The node's waiting webhooks, as n8n's send-and-wait nodes declare them: n8n serves them at
 * `/webhook-waiting/{execution}/{node id}` while the execution waits (`restartWebhook`), and
 * checks the link's signature before the node sees the request.
 */
export const sendAndWaitWebhooks: IWebhookDescription[] = (['GET', 'POST'] as const).map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

/** Shown in the editor while the node waits. */
export const sendAndWaitTooltip = '={{ $parameter["operation"] === "sendAndWait" ? "Execution will continue after the recipient answers" : "" }}';

class PageError extends Error {}

/** Answers the request with one of our pages; n8n then sends nothing itself. */
function answer(ctx: IWebhookFunctions, status: number, html: string): void {
	const res = ctx.getResponseObject();
	res.status(status);
	res.setHeader('Content-Type', 'text/html; charset=utf-8');
	res.setHeader('Content-Security-Policy', PAGE_SECURITY_POLICY);
	res.setHeader('Cache-Control', 'no-store');
	res.setHeader('X-Content-Type-Options', 'nosniff');
	res.send(html);
}

/** The form body: n8n parses a urlencoded post to an object; a multipart one to `{ data, files }`. */
function formBody(ctx: IWebhookFunctions): IDataObject {
	const body = ctx.getBodyData() as unknown;
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
	const data = (body as IDataObject).data;
	return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as IDataObject) : (body as IDataObject);
}

/**
 * A request to the waiting webhook. Approval: the link's page (GET) asks for the click, its
 * button (POST) answers `{ data: { approved, respondedAt } }`. Free text and custom form: GET
 * shows the form, POST takes it and answers `{ data: { text | <field name>…, respondedAt } }`.
 * An answer that is not taken (a missing required field) shows the form again; the execution
 * keeps waiting.
 */
export async function sendAndWaitWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const method = this.getRequestObject().method;
	// A parameter written from the item (`{{ $json.… }}`) has no item here: it reads as unset,
	// so the page goes without the question and the labels are the defaults.
	const read: ReadParameter = (name) => {
		try {
			return this.getNodeParameter(name, undefined) as unknown;
		} catch {
			return undefined;
		}
	};
	const fail: Fail = (label, problem) => {
		throw new PageError(`${label} ${problem}`);
	};
	const done = (data: IDataObject): IWebhookResponseData => {
		answer(this, 200, recordedPage());
		return { noWebhookResponse: true, workflowData: [[{ json: { data: { ...data, respondedAt: new Date().toISOString() } } }]] };
	};
	try {
		const message = String(read('message') ?? '').trim();
		const responseType = responseTypeOf(read, fail);
		if (responseType === 'chatReply') return await chatReplyAnswer(this, method, choicesOf(read, fail));
		if (responseType === 'approval') {
			const query = this.getQueryData() as IDataObject;
			const approved = query.approved === 'true' ? true : query.approved === 'false' ? false : undefined;
			const approval = approvalSettings(read, fail);
			if (approved === undefined || (approved === false && !approval.double)) {
				answer(this, 400, problemPage('This link is not complete', 'Open the link from the message as it was sent.'));
				return { noWebhookResponse: true };
			}
			if (method !== 'POST') {
				answer(this, 200, approvalPage(message, approved ? approval.approveLabel : approval.declineLabel, approved));
				return { noWebhookResponse: true };
			}
			return done({ approved });
		}
		const form = formSettings(responseType, message, read, fail);
		if (method !== 'POST') {
			answer(this, 200, formPage(form));
			return { noWebhookResponse: true };
		}
		const result = readAnswers(form.fields, formBody(this));
		if ('problem' in result) {
			answer(this, 400, formPage({ ...form, problem: result.problem }));
			return { noWebhookResponse: true };
		}
		return done(responseType === 'freeText' ? { text: result.answers[FREE_TEXT_FIELD.label] } : result.answers);
	} catch (error) {
		if (!(error instanceof PageError)) throw new NodeOperationError(this.getNode(), error as Error);
		answer(this, 500, problemPage('This question cannot be answered', `The workflow's node is set up wrongly: ${error.message}.`));
		return { noWebhookResponse: true };
	}
}

/**
 * The offered choices, to name the one a reply picks. Settings that cannot be read here (an
 * expression of the item) give none: the reply still resumes the run, with `choice` null,
 * rather than leave it waiting.
 */
function choicesOf(read: ReadParameter, fail: Fail): string[] {
	try {
		return chatReplySettings(read, fail).choices;
	} catch {
		return [];
	}
}

/**
 * The chat's reply, posted by the Messaging Instance Trigger to this execution's resume URL
 * (n8n checked the URL's signature): the trigger's item, plus the choice it picks and its file
 * as binary data again. Nothing else resumes the execution: opening the address shows a page
 * that says where to answer.
 */
async function chatReplyAnswer(ctx: IWebhookFunctions, method: string, choices: string[]): Promise<IWebhookResponseData> {
	if (method !== 'POST') {
		answer(ctx, 400, problemPage('Answer in the chat', 'This question is answered by replying to the message in the chat.'));
		return { noWebhookResponse: true };
	}
	const read = readReply(ctx.getBodyData());
	if (!read.ok) {
		ctx.getResponseObject().status(400).json({ message: read.reason });
		return { noWebhookResponse: true };
	}
	const { json, binary } = read.reply;
	const text = typeof json.text === 'string' ? json.text : '';
	const files: IBinaryKeyData = {};
	for (const [name, file] of Object.entries(binary)) {
		files[name] = await ctx.helpers.prepareBinaryData(Buffer.from(file.data, 'base64'), file.fileName, file.mimeType);
	}
	ctx.getResponseObject().status(200).json(RESUMED);
	const item = { json: { ...json, choice: choiceOf(text, choices) }, ...(Object.keys(files).length > 0 ? { binary: files } : {}) };
	return { noWebhookResponse: true, workflowData: [[item]] };
}
