import { optionalNumberProperty, readOptionalNumber } from '../fields';
import type { Operation } from '../types';

export const getBusinessProfile: Operation = {
	resource: 'profile',
	value: 'getBusinessProfile',
	name: 'Get Business Profile',
	action: 'Get a business profile',
	description: 'Get the WhatsApp Business profile of this account or of a number: description, address, e-mail, websites, category',
	v2Only: true,
	properties: [optionalNumberProperty('Whose business profile to get; empty: this instance\'s own account')],
	path: '/chat/fetchBusinessProfile',
	buildBody: (params) => {
		const number = readOptionalNumber(params, 'number');
		return number === undefined ? {} : { number };
	},
};
