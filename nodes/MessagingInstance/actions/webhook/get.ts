import { ROUTES } from '../../../shared/routes';
import type { Operation } from '../types';

export const getWebhook: Operation = {
	resource: 'webhook',
	value: 'get',
	name: 'Get',
	action: 'Get the instance webhook',
	description: 'Read where the instance delivers its events, and which events',
	v2Only: true,
	properties: [],
	...ROUTES.findWebhook,
};
