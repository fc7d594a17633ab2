import { recipientProperty } from '../fields';
import type { Operation } from '../types';

export const connectInstance: Operation = {
	resource: 'instance',
	value: 'connect',
	name: 'Connect',
	action: 'Connect an instance',
	description: 'Start connecting: returns the QR code to scan (as a PNG) and the pairing code',
	v2Only: true,
	method: 'GET',
	properties: [
		{
			...recipientProperty('Phone number of the account, to get a pairing code to type instead of scanning (optional)'),
			displayName: 'Pairing Number',
			required: false,
			hint: 'The phone number of the account with country code, digits only, e.g. 5511999990000',
		},
		{
			displayName: 'Put QR Code in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the output binary field to put the QR code image in',
		},
	],
	path: '/instance/connect',
	buildQuery: (params) => {
		const number = params.textOrEmpty('number').trim();
		return number !== '' ? { number: params.checkRecipient(number, 'Pairing Number') } : {};
	},
	// An instance that is already connected answers its state, without a QR code.
	binaryOutput: {
		dataField: 'base64',
		defaultMimeType: 'image/png',
		defaultFileName: 'qrcode.png',
		required: false,
	},
	errorInOkResponse: true,
};
