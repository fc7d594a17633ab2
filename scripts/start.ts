/**
 * `npm start`: a local playground in one command.
 *
 *  1. packs the package (its prepack builds it) and installs the tarball into the dev n8n's
 *     community-package folder, the way a user installs it;
 *  2. makes sure the pinned n8n is installed (first run: several minutes, with progress);
 *  3. starts the sandbox server on 8181 (documented dialect, instance `demo`, fixed dev key);
 *  4. starts n8n on 5678 with the persistent user folder .n8n-dev/ (git-ignored), creates
 *     the owner account, the sandbox credential and the example workflow
 *     "Reply to every incoming message" (once), and keeps that workflow active;
 *  5. prints where everything is. Ctrl-C stops n8n and the sandbox.
 *
 * Env: DEV_N8N_PORT (5678), DEV_SANDBOX_PORT (8181), DEV_N8N_VERSION (pinned default).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { TRIGGER_TYPE, replyWorkflow } from '../e2e/workflows';
import {
	DEFAULT_N8N_VERSION,
	DEV_OWNER,
	REPO_ROOT,
	ensureN8n,
	importCredential,
	importWorkflow,
	installTarballIntoUserFolder,
	packRepo,
	setupOwnerAndLogin,
	startN8n,
	type N8nHandle,
	type RestClient,
} from './n8n-runtime';

const N8N_PORT = Number(process.env.DEV_N8N_PORT || 5678);
const SANDBOX_PORT = Number(process.env.DEV_SANDBOX_PORT || 8181);
const VERSION = process.env.DEV_N8N_VERSION || DEFAULT_N8N_VERSION;
const DEV_API_KEY = 'sandbox-dev-api-key';
const INSTANCE = 'demo';
const USER_FOLDER = path.join(REPO_ROOT, '.n8n-dev');
const STATE_FILE = path.join(USER_FOLDER, 'dev-state.json');

interface DevState {
	credentialId?: string;
	workflowId?: string;
	activatedOnce?: boolean;
}

function say(msg: string): void {
	console.log(`[start] ${msg}`);
}

function readState(): DevState {
	try {
		return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as DevState;
	} catch {
		return {};
	}
}

function writeState(s: DevState): void {
	fs.writeFileSync(STATE_FILE, JSON.stringify(s, null, 2) + '\n');
}

/** Ids of the active workflows that contain a node of the given type. */
async function activeWorkflowsWith(rest: RestClient, nodeType: string): Promise<string[]> {
	const list = await rest.call('GET', '/workflows');
	const rows: Array<{ id: string; active?: boolean }> = Array.isArray(list) ? list : (list?.results ?? list?.data ?? []);
	const ids: string[] = [];
	for (const row of rows) {
		if (!row.active) continue;
		const wf = await rest.getWorkflow(row.id);
		if ((wf.nodes as Array<{ type: string }>).some((n) => n.type === nodeType)) ids.push(row.id);
	}
	return ids;
}

async function main(): Promise<void> {
	fs.mkdirSync(path.join(USER_FOLDER, '.n8n'), { recursive: true });

	say(`making sure n8n ${VERSION} is installed (the first run downloads ~3 GB and takes a few minutes)`);
	await ensureN8n(VERSION);

	say('building and packing the package (npm pack)');
	const tarball = await packRepo();
	say(`installing ${path.basename(tarball)} into .n8n-dev/.n8n/nodes`);
	await installTarballIntoUserFolder(tarball, USER_FOLDER);
	fs.rmSync(path.dirname(tarball), { recursive: true, force: true });

	say(`starting the sandbox on port ${SANDBOX_PORT}`);
	const { startSandbox } = await import('../sandbox/server');
	const sandbox = await startSandbox({
		port: SANDBOX_PORT,
		dialect: 'documented',
		apiKey: DEV_API_KEY,
		instances: [{ name: INSTANCE }],
	});

	// CLI imports run while the server is stopped (they share the sqlite database).
	const state = readState();
	if (!state.credentialId) {
		say('creating the credential "Sandbox (dev)"');
		state.credentialId = await importCredential(
			USER_FOLDER,
			{
				name: 'Sandbox (dev)',
				type: 'messagingInstanceApi',
				data: { baseUrl: sandbox.url, apiKey: DEV_API_KEY, dialect: 'documented', instance: INSTANCE },
			},
			VERSION,
		);
		writeState(state);
	}
	if (!state.workflowId) {
		say('importing the example workflow "Reply to every incoming message"');
		state.workflowId = await importWorkflow(USER_FOLDER, replyWorkflow(state.credentialId, { instance: INSTANCE }), VERSION);
		writeState(state);
	}

	let n8n: N8nHandle | undefined;
	let stopping = false;
	const stopAll = async (code: number) => {
		if (stopping) return;
		stopping = true;
		say('stopping n8n and the sandbox…');
		await n8n?.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		say('stopped');
		process.exit(code);
	};
	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));

	say(`starting n8n on port ${N8N_PORT} (user folder .n8n-dev/)`);
	try {
		n8n = await startN8n({ version: VERSION, userFolder: USER_FOLDER, port: N8N_PORT, echo: true });
	} catch (e) {
		console.error(e instanceof Error ? e.message : e);
		await stopAll(1);
		return;
	}
	const rest = await setupOwnerAndLogin(n8n.url, DEV_OWNER);

	// The sandbox keeps webhooks in memory, and n8n 2.x does not re-run a trigger's webhook
	// registration when it starts (published webhooks are served from its database). So on
	// every start, re-activate each active workflow that uses our trigger: that registers its
	// URL with this fresh sandbox. The example is activated the first time only, so a user
	// who deactivates it keeps it off.
	try {
		if (!state.activatedOnce) {
			await rest.activate(state.workflowId);
			state.activatedOnce = true;
			writeState(state);
		} else {
			for (const id of await activeWorkflowsWith(rest, TRIGGER_TYPE)) {
				await rest.deactivate(id);
				await rest.activate(id);
			}
		}
	} catch (e) {
		say(`WARNING: could not activate the example workflow: ${(e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 400)}`);
	}

	// n8n registers the trigger's webhook during activation; give it a moment.
	let hook = sandbox.webhookOf(INSTANCE);
	for (let i = 0; i < 40 && !(hook?.enabled && hook.url.startsWith(n8n.url)); i++) {
		await new Promise((r) => setTimeout(r, 250));
		hook = sandbox.webhookOf(INSTANCE);
	}
	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n editor      ${n8n.url}/   (n8n ${VERSION})`);
	console.log(`  login           ${DEV_OWNER.email} / ${DEV_OWNER.password}   (dev only)`);
	console.log(`  example         ${n8n.url}/workflow/${state.workflowId}  "Reply to every incoming message"`);
	console.log(`  sandbox         ${sandbox.url}   instance "${INSTANCE}", API key ${DEV_API_KEY}`);
	console.log(`  chat page       ${sandbox.url}/chat`);
	console.log(
		`  webhook         ${hook?.enabled && hook.url.startsWith(n8n.url) ? 'registered by the trigger of the example workflow' : 'NOT registered (is the example workflow active?)'}`,
	);
	console.log(`  send a message  npm run sandbox -- send --url ${sandbox.url} --instance ${INSTANCE} --from 5511999990000 --text hello`);
	console.log(`  stop            Ctrl-C`);
	console.log(`${line}\n`);

	const code = await n8n.exited;
	if (!stopping) {
		say(`n8n exited (${code})`);
		await stopAll(1);
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
