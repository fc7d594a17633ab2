import type { IHookFunctions, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import { picker } from '../shared/pickers';

/**
 * The trigger's Instance parameter. Version 1 saved it as text; from version 2 it is the same
 * picker as the action node's (From List or By Name), saved as `{ __rl, mode, value }`. Both
 * keep the name `instance`, so a workflow saved with version 1 keeps its text field.
 */

const DESCRIPTION =
	'The instance whose events start this workflow. The trigger registers its own webhook on this instance; a server keeps one webhook per instance, so this replaces any webhook set before.';

export const instanceProperties: INodeProperties[] = [
	{
		displayName: 'Instance',
		name: 'instance',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. my-instance',
		description: DESCRIPTION,
		displayOptions: { show: { '@version': [1] } },
	},
	{
		...picker({
			displayName: 'Instance',
			name: 'instance',
			description: DESCRIPTION,
			searchMethod: 'searchInstances',
			typedMode: { displayName: 'By Name', name: 'name', placeholder: 'e.g. my-instance' },
		}),
		displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
	},
];

/** The subtitle on the canvas: the instance's name in either saved shape. */
export const instanceSubtitle =
	'={{ "Instance: " + (typeof $parameter["instance"] === "object" ? $parameter["instance"].value : $parameter["instance"]) }}';

/**
 * The instance's name, trimmed, from text (version 1) or a picker value (version 2); '' when
 * there is none. The one place the trigger reads this parameter (a delivery reads it through
 * deliverySettings.ts, which keeps it while the workflow is active).
 */
export function instanceNameOf(ctx: IHookFunctions | IWebhookFunctions): string {
	return instanceNameFrom(ctx.getNodeParameter('instance', ''));
}

/** The instance's name from the parameter's value (text, or a picker value). */
export function instanceNameFrom(saved: unknown): string {
	const value =
		typeof saved === 'object' && saved !== null && !Array.isArray(saved) ? (saved as { value?: unknown }).value : saved;
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}
