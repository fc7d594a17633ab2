/**
 * The pieces the v2 end-to-end workflows are made of: the Manual Trigger they start from, an
 * action node on a sandbox credential, a picked instance, and the check that a run worked.
 */
import { ACTION_TYPE, credentialRef } from '../scripts/demo-workflow';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Sandbox = any;

export const start = { id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };

export function action(credId: string, name: string, parameters: Record<string, unknown>, position: [number, number], credentialName = 'Sandbox v2') {
	return { id: name.replace(/\W/g, ''), name, type: ACTION_TYPE, typeVersion: 2, position, credentials: credentialRef(credId, credentialName), parameters };
}

export const picked = (value: string) => ({ __rl: true, mode: 'list', value });

export function ran(result: { ok: boolean; code: number | null; signal?: NodeJS.Signals | null; stdout: string; data?: any }): void {
	if (!result.ok) {
		const error = result.data?.data?.resultData?.error ?? result.data?.resultData?.error;
		throw new Error(`exit ${result.code}${result.signal ? ` (${result.signal})` : ''}: ${error ? `${error.node?.name ?? ''} ${error.message} ${error.description ?? ''}` : result.stdout.slice(-1500)}`);
	}
	if (!result.data) throw new Error(`n8n execute printed no run data it could read; its output ends: ${result.stdout.slice(-1500)}`);
}
