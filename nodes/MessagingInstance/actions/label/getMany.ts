import { ROUTES } from '../../../shared/routes';
import { returnAllProperties, wholeList } from '../fields';
import type { Operation } from '../types';

export const getManyLabels: Operation = {
	resource: 'label',
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many labels',
	description: 'List the labels of the account (WhatsApp Business); one item per label',
	v2Only: true,
	properties: returnAllProperties(),
	...ROUTES.listLabels,
	pagination: wholeList(),
};
