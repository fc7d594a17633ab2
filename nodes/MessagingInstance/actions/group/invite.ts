import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../parameters';
import type { Operation } from '../types';

/** WhatsApp's invite codes: 22 letters and digits, the end of a chat.whatsapp.com link. */
const INVITE_CODE = /^[A-Za-z0-9]{22}$/;
const INVITE_LINK = /^(?:https?:\/\/)?chat\.whatsapp\.com\/(?:invite\/)?([A-Za-z0-9]+)\/?(?:[?#].*)?$/i;

export function inviteCodeProperty(): INodeProperties {
	return {
		displayName: 'Invite Code',
		name: 'inviteCode',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'F1EX5QZxO181L3TMVP31gY',
		description: 'The group\'s invite code, or its whole link (https://chat.whatsapp.com/…)',
	};
}

/** The code of the query: a link is cut to its code; anything but 22 letters and digits is refused before sending. */
export function inviteQuery(params: ItemParameters): IDataObject {
	const label = params.label('inviteCode');
	const given = params.text('inviteCode', label).trim();
	const code = INVITE_LINK.exec(given)?.[1] ?? given;
	if (!INVITE_CODE.test(code)) {
		params.fail(label, 'must be an invite code of 22 letters and digits, or a link https://chat.whatsapp.com/<code>', 'Get it from Group → Get Invite Code, or copy the group\'s invite link.');
	}
	return { inviteCode: code };
}

export function inviteRoute(spec: Pick<Operation, 'value' | 'name' | 'action' | 'description' | 'path'>): Operation {
	return { resource: 'group', v2Only: true, method: 'GET', properties: [inviteCodeProperty()], buildQuery: inviteQuery, ...spec };
}
