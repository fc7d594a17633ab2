import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { formFieldsProperty, readFormFields } from './formFields';
import type { FormField } from './formFields';
import { limitWaitTimeOption } from './waitLimit';

/**
 * The answers this node takes: through n8n's waiting page (approval, free text, custom form),
 * or the recipient's next message in the chat, as the trigger receives it (chat reply).
 */
export const RESPONSE_TYPES = ['approval', 'freeText', 'customForm', 'chatReply'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

const DEFAULT_APPROVE_LABEL = '✓ Approve';
const DEFAULT_DECLINE_LABEL = '✗ Decline';
const DEFAULT_BUTTON_LABEL = 'Respond';

const FORM_RESPONSES = { '/responseType': ['freeText', 'customForm'] };
const CHAT_REPLY = { '/responseType': ['chatReply'] };

/** A poll holds 2 to 12 options on WhatsApp; the server takes up to 10 (as Send Poll). */
export const MAX_REPLY_CHOICES = 10;

/** The parameters after the recipient, with the names n8n's send-and-wait nodes store. */
export const sendAndWaitProperties: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		default: '',
		required: true,
		typeOptions: { rows: 4 },
		description: 'The question. The link(s) to answer it follow it in the same message.',
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{ name: 'Approval', value: 'approval', description: 'The person approves (or declines) through a link' },
			{ name: 'Custom Form', value: 'customForm', description: 'The person fills in a form of the fields set here' },
			{ name: 'Free Text', value: 'freeText', description: 'The person writes an answer in a form' },
			{
				name: 'Reply in the Chat',
				value: 'chatReply',
				description: 'The person simply answers in the chat; needs an active Messaging Instance Trigger for the instance',
			},
		],
	},
	{
		displayName: 'Choices',
		name: 'choices',
		placeholder: 'Add Choice',
		type: 'fixedCollection',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		description: 'Answers to offer, numbered in the message; the reply picks one by its number or its text (output as "choice")',
		displayOptions: { show: { responseType: ['chatReply'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [{ displayName: 'Choice', name: 'choice', type: 'string', default: '', description: 'An answer as the person reads it' }],
			},
		],
	},
	{ ...formFieldsProperty, displayOptions: { show: { responseType: ['customForm'] } } },
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { responseType: ['approval'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Disapprove', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: DEFAULT_APPROVE_LABEL,
					},
					{
						displayName: 'Disapprove Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: DEFAULT_DECLINE_LABEL,
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			limitWaitTimeOption,
			{
				displayName: 'Also Start the Trigger\'s Workflow',
				name: 'alsoStartRun',
				type: 'boolean',
				default: false,
				description: 'Whether the reply also starts a run of the trigger\'s workflow, as any other message does (by default it only resumes this execution)',
				displayOptions: { show: CHAT_REPLY },
			},
			{
				displayName: 'Message Button Label',
				name: 'messageButtonLabel',
				type: 'string',
				default: DEFAULT_BUTTON_LABEL,
				description: 'The words before the form\'s link in the message',
				displayOptions: { show: FORM_RESPONSES },
			},
			{
				displayName: 'Response Form Button Label',
				name: 'responseFormButtonLabel',
				type: 'string',
				default: 'Submit',
				displayOptions: { show: FORM_RESPONSES },
			},
			{
				displayName: 'Response Form Description',
				name: 'responseFormDescription',
				type: 'string',
				default: '',
				description: 'Text above the form\'s fields (the message when left empty)',
				displayOptions: { show: FORM_RESPONSES },
			},
			{
				displayName: 'Response Form Title',
				name: 'responseFormTitle',
				type: 'string',
				default: '',
				description: 'Title of the form the link opens',
				displayOptions: { show: FORM_RESPONSES },
			},
			{
				displayName: 'Send Choices As',
				name: 'choicesAs',
				type: 'options',
				default: 'text',
				options: [
					{ name: 'Numbered Text', value: 'text', description: 'The choices as a numbered list under the message' },
					{ name: 'Poll', value: 'poll', description: 'A poll with the message as its question (2 to 10 choices)' },
				],
				displayOptions: { show: CHAT_REPLY },
			},
		],
	},
];

/** Reads a stored parameter (an item's in the run, the node's in the waiting webhook). */
export type ReadParameter = (name: string) => unknown;
/** Reports a wrong setting, naming the field; throws. */
export type Fail = (label: string, problem: string) => never;

const isObject = (value: unknown): value is IDataObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A label the user may leave empty (then the default) or write; at most a line of text. */
function labelOf(value: unknown, fallback: string, label: string, fail: Fail): string {
	if (value === undefined || value === null) return fallback;
	if (typeof value !== 'string' && typeof value !== 'number') return fail(label, 'must be text');
	const text = String(value).replace(/\s+/g, ' ').trim();
	if (text.length > 100) fail(label, 'is longer than 100 characters');
	return text || fallback;
}

export function responseTypeOf(read: ReadParameter, fail: Fail): ResponseType {
	const value = read('responseType') ?? 'approval';
	if (!RESPONSE_TYPES.includes(value as ResponseType)) fail('Response Type', `"${String(value).slice(0, 40)}" is not a response type of this node`);
	return value as ResponseType;
}

export interface ApprovalSettings {
	double: boolean;
	approveLabel: string;
	declineLabel: string;
}

export function approvalSettings(read: ReadParameter, fail: Fail): ApprovalSettings {
	const stored = read('approvalOptions');
	const values = isObject(stored) && isObject(stored.values) ? stored.values : {};
	const type = values.approvalType ?? 'single';
	if (type !== 'single' && type !== 'double') fail('Approval Options: Values: Type of Approval', 'must be Approve Only or Approve and Disapprove');
	return {
		double: type === 'double',
		approveLabel: labelOf(values.approveLabel, DEFAULT_APPROVE_LABEL, 'Approval Options: Values: Approve Button Label', fail),
		declineLabel: labelOf(values.disapproveLabel, DEFAULT_DECLINE_LABEL, 'Approval Options: Values: Disapprove Button Label', fail),
	};
}

export interface FormSettings {
	fields: FormField[];
	title: string;
	description: string;
	buttonLabel: string;
	messageButtonLabel: string;
}

/** The free-text form: one required text area, whose answer is output as `text`. */
export const FREE_TEXT_FIELD: FormField = { label: 'Response', type: 'textarea', placeholder: '', required: true, multiple: false, choices: [] };

export function formSettings(responseType: 'freeText' | 'customForm', message: string, read: ReadParameter, fail: Fail): FormSettings {
	const options = read('options');
	const chosen = isObject(options) ? options : {};
	const text = (name: string, label: string): string => {
		const value = chosen[name];
		if (value === undefined || value === null) return '';
		if (typeof value !== 'string' && typeof value !== 'number') return fail(`Options: ${label}`, 'must be text');
		return String(value);
	};
	return {
		fields: responseType === 'freeText' ? [FREE_TEXT_FIELD] : readFormFields(read('formFields'), fail),
		title: text('responseFormTitle', 'Response Form Title'),
		description: text('responseFormDescription', 'Response Form Description') || message,
		buttonLabel: labelOf(chosen.responseFormButtonLabel, 'Submit', 'Options: Response Form Button Label', fail),
		messageButtonLabel: labelOf(chosen.messageButtonLabel, DEFAULT_BUTTON_LABEL, 'Options: Message Button Label', fail),
	};
}

export interface ChatReplySettings {
	choices: string[];
	asPoll: boolean;
	alsoStartRun: boolean;
}

export function chatReplySettings(read: ReadParameter, fail: Fail): ChatReplySettings {
	const stored = read('choices');
	const values = isObject(stored) ? stored.values : undefined;
	if (values !== undefined && !Array.isArray(values)) fail('Choices', 'must be a list of choices');
	const choices: string[] = [];
	for (const [index, entry] of ((values ?? []) as unknown[]).entries()) {
		const value = isObject(entry) ? entry.choice : undefined;
		const text = typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\s+/g, ' ').trim() : '';
		if (text === '') fail(`Choices: choice ${index + 1}`, 'is empty');
		if (text.length > 100) fail(`Choices: choice ${index + 1}`, 'is longer than 100 characters');
		if (choices.some((choice) => choice.toLowerCase() === text.toLowerCase())) fail(`Choices: choice ${index + 1}`, `"${text}" is offered twice`);
		choices.push(text);
	}
	if (choices.length > MAX_REPLY_CHOICES) fail('Choices', `has ${choices.length} choices; at most ${MAX_REPLY_CHOICES} are allowed`);
	const options = read('options');
	const chosen = isObject(options) ? options : {};
	const as = chosen.choicesAs ?? 'text';
	if (as !== 'text' && as !== 'poll') fail('Options: Send Choices As', 'must be Numbered Text or Poll');
	if (as === 'poll' && choices.length < 2) fail('Choices', 'needs at least 2 choices for a poll');
	const also = chosen.alsoStartRun ?? false;
	if (also !== true && also !== false && also !== 'true' && also !== 'false') fail('Options: Also Start the Trigger\'s Workflow', 'must be true or false');
	return { choices, asPoll: as === 'poll', alsoStartRun: also === true || also === 'true' };
}
