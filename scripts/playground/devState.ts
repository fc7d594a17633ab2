/** What `npm start` remembers in its user folder between runs, and the names it gives what it creates. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const DEV_API_KEY = 'sandbox-dev-api-key';
export const DEV_CREDENTIAL_NAME = 'Sandbox (dev)';

/** What a run created once and remembers in <userFolder>/dev-state.json. */
export interface DevState {
	credentialId?: string;
	workflowId?: string;
	/** The sandbox address the credential was given (to follow a DEV_SANDBOX_PORT change). */
	sandboxUrl?: string;
}

export function stateFile(userFolder: string): string {
	return path.join(userFolder, 'dev-state.json');
}

export function readState(userFolder: string): DevState {
	try {
		return JSON.parse(fs.readFileSync(stateFile(userFolder), 'utf8')) as DevState;
	} catch {
		return {};
	}
}

export function writeState(userFolder: string, s: DevState): void {
	fs.writeFileSync(stateFile(userFolder), JSON.stringify(s, null, 2) + '\n');
}

/** Where the sandbox keeps its instances, groups, labels and webhooks between starts. */
export function sandboxStateFile(userFolder: string): string {
	return path.join(userFolder, 'sandbox-state.json');
}
