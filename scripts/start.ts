/**
 * `npm start`: a local playground in one command.
 *
 *  1. checks that both ports are free (a taken one is named, with the variable that moves it),
 *     then makes sure the pinned n8n is installed (first run only: ~3 GB, with progress and one estimate);
 *  2. packs the package (its prepack builds it) and installs the tarball into the dev n8n's
 *     community-package folder, the way a user installs it;
 *  3. starts the sandbox server on 8181 (v2 dialect, so every operation can be tried; instance `demo`, fixed dev key);
 *  4. starts n8n on 5678 with the persistent user folder .n8n-dev/ (git-ignored); its output
 *     goes to .n8n-dev/n8n.log. The first time only, it creates the owner account, the
 *     credential "Sandbox (dev)" and the published example workflow "Reply to every incoming
 *     message" (scripts/demo-workflow.ts). Later starts leave the user's workflows as they
 *     are (published version and draft alike); they only re-register the sandbox webhook of
 *     the published workflows that use that credential, and follow a changed port;
 *  5. prints where everything is. Ctrl-C stops n8n and the sandbox; a second Ctrl-C, more than
 *     1.5 s after the first (one press arrives twice, see stopAll), forces.
 *
 * Restarts skip what has not changed: the package is packed and installed again only when
 * its sources changed (a hash of them is kept beside the installed copy), the CLI imports run
 * only the first time, and a published workflow is re-published only when the sandbox does not
 * hold its webhook (the sandbox keeps its state in <userFolder>/sandbox-state.json; `npm start
 * -- --fresh` empties it). Each step prints the seconds since the start.
 *
 * Stopping is certain: n8n runs in its own process group, and a keeper process
 * (scripts/runtime/keeper.ts) ends it when this process ends, even by SIGKILL; the sandbox
 * runs inside this process.
 *
 * Env: DEV_N8N_PORT (5678), DEV_SANDBOX_PORT (8181), DEV_N8N_VERSION (pinned default),
 * DEV_USER_FOLDER (.n8n-dev in the repo).
 * The e2e tier runs startPlayground() twice on one folder to check that a restart keeps drafts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { DEMO_INSTANCE, DEMO_WORKFLOW_NAME, replyWorkflow } from './demo-workflow';
import {
	DEFAULT_N8N_VERSION,
	DEV_OWNER,
	REPO_ROOT,
	ensureN8n,
	importCredential,
	importWorkflow,
	installTarballIntoUserFolder,
	isInstalled,
	keeperSaysWhenDone,
	packRepo,
	setupOwnerAndLogin,
	startN8n,
	type N8nHandle,
	type RestClient,
} from './n8n-runtime';
import { DEV_API_KEY, DEV_CREDENTIAL_NAME, readState, sandboxStateFile, stateFile, writeState, type DevState } from './playground/devState';
import { installedHashFile, installedIsCurrent, packageSourceHash } from './playground/packageHash';
import { portProblems } from './playground/ports';
import { publishedSandboxWorkflows, registerAgain, webhookHeld } from './playground/publishedWorkflows';
import { followSandboxAddress } from './playground/sandboxAddress';
import type { Sandbox } from '../sandbox/server';

export { DEV_API_KEY, DEV_CREDENTIAL_NAME, sandboxStateFile, type DevState };

export interface PlaygroundOptions {
	userFolder: string;
	n8nPort: number;
	sandboxPort: number;
	version?: string;
	/** A tarball of the package to install instead of packing the repo. */
	tarball?: string;
	/** Progress lines (default: none). */
	say?: (line: string) => void;
	/** Start the sandbox empty (its saved state is removed). */
	fresh?: boolean;
}

export interface Playground {
	n8n: N8nHandle;
	sandbox: Sandbox;
	rest: RestClient;
	state: DevState;
	logFile: string;
	/** One line on the sandbox webhook: registered, or what is wrong and how to fix it. */
	webhookStatus: string;
	/** What this start changed or found (a port followed, a problem), for the user. */
	notes: string[];
	/** Seconds each step took, in order (for the README's figures and the user). */
	timings: Array<{ step: string; seconds: number }>;
	stop(): Promise<void>;
}

function firstLine(e: unknown): string {
	return (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 400);
}

/**
 * Starts the sandbox and n8n on a user folder, creating the owner, the credential and the
 * published example once. A workflow that exists keeps its published version and its draft
 * (its sandbox webhook is registered again, from the published version).
 */
export async function startPlayground(opts: PlaygroundOptions): Promise<Playground> {
	const t0 = Date.now();
	const timings: Array<{ step: string; seconds: number }> = [];
	let stepStarted = t0;
	let stepName = '';
	const seconds = (ms: number) => Math.round(ms / 100) / 10;
	// Each line says when it began; each step's duration is kept for the summary.
	const say = (line: string) => (opts.say ?? (() => undefined))(`${seconds(Date.now() - t0).toFixed(1)} s  ${line}`);
	const step = (name: string, line: string) => {
		const now = Date.now();
		if (stepName) timings.push({ step: stepName, seconds: seconds(now - stepStarted) });
		stepName = name;
		stepStarted = now;
		say(line);
	};
	const version = opts.version ?? DEFAULT_N8N_VERSION;
	const userFolder = path.resolve(opts.userFolder);
	fs.mkdirSync(path.join(userFolder, '.n8n'), { recursive: true });
	const logFile = path.join(userFolder, 'n8n.log');

	// Both ports first: a taken one is said now, not after the install, the pack and the imports.
	const problems = await portProblems([
		{ what: 'n8n', variable: 'DEV_N8N_PORT', port: opts.n8nPort },
		{ what: 'the sandbox', variable: 'DEV_SANDBOX_PORT', port: opts.sandboxPort },
	]);
	if (problems.length > 0) throw new Error(problems.join('\n[start] '));

	// The install's own lines give the one estimate of its time, and only when it installs.
	if (isInstalled(version)) step('n8n installed', `n8n ${version} is installed`);
	else step('n8n installed', `installing n8n ${version} (first run only; its progress follows, a line every 15 s)`);
	await ensureN8n(version);

	if (opts.tarball) {
		step('package installed', `installing ${path.basename(opts.tarball)} into ${path.relative(process.cwd(), userFolder) || '.'}/.n8n/nodes`);
		await installTarballIntoUserFolder(opts.tarball, userFolder);
	} else {
		const hash = packageSourceHash();
		if (installedIsCurrent(userFolder, hash)) {
			step('package unchanged', 'the package is unchanged since it was installed: not packing it again');
		} else {
			step('package built and installed', 'building and packing the package (npm pack), then installing it into the dev n8n');
			const tarball = await packRepo();
			await installTarballIntoUserFolder(tarball, userFolder);
			fs.rmSync(path.dirname(tarball), { recursive: true, force: true });
			fs.writeFileSync(installedHashFile(userFolder), `${hash}\n`);
		}
	}

	step('sandbox started', `starting the sandbox on port ${opts.sandboxPort}`);
	const { startSandbox, HELD_DELAY_MS } = await import('../sandbox/server');
	const sandbox = await startSandbox({
		port: opts.sandboxPort,
		// v2, as most servers are: every operation (media, instances, groups) works in the playground.
		dialect: 'v2',
		apiKey: DEV_API_KEY,
		instances: [{ name: DEMO_INSTANCE }],
		// A send with `delay` (typing) is held that long, as the server holds it, with "typing…" on the chat page.
		maxDelayMs: HELD_DELAY_MS,
		stateFile: sandboxStateFile(userFolder),
		fresh: opts.fresh,
	}).catch((e: NodeJS.ErrnoException) => {
		if (e.code === 'EADDRINUSE') {
			throw new Error(`port ${opts.sandboxPort} is taken: stop what uses it, or pick another with DEV_SANDBOX_PORT=<port> npm start`);
		}
		throw e;
	});

	const notes: string[] = [];
	// Said when it happens, and kept for the caller.
	const note = (line: string) => {
		notes.push(line);
		say(line);
	};
	if (sandbox.stateNote) note(sandbox.stateNote);
	let n8n: N8nHandle | undefined;
	try {
		// CLI imports run while the server is stopped (they share the sqlite database).
		const state = readState(userFolder);
		let createdExample = false;
		if (!state.credentialId) {
			step('credential imported (n8n CLI)', `creating the credential "${DEV_CREDENTIAL_NAME}"`);
			state.credentialId = await importCredential(
				userFolder,
				{
					name: DEV_CREDENTIAL_NAME,
					type: 'messagingInstanceApi',
					data: { baseUrl: sandbox.url, apiKey: DEV_API_KEY, dialect: 'v2', instance: DEMO_INSTANCE },
				},
				version,
			);
			state.sandboxUrl = sandbox.url;
			writeState(userFolder, state);
		}
		if (!state.workflowId) {
			step('example imported (n8n CLI)', `importing the example workflow "${DEMO_WORKFLOW_NAME}"`);
			const wf = replyWorkflow(state.credentialId, { instance: DEMO_INSTANCE, credentialName: DEV_CREDENTIAL_NAME });
			state.workflowId = await importWorkflow(userFolder, wf, version);
			writeState(userFolder, state);
			createdExample = true;
		}

		step('n8n started', `starting n8n on port ${opts.n8nPort} (its output goes to ${path.relative(process.cwd(), logFile) || logFile})`);
		fs.appendFileSync(logFile, `\n===== n8n ${version} started by npm start at ${new Date().toISOString()} on port ${opts.n8nPort}\n`);
		n8n = await startN8n({ version, userFolder, port: opts.n8nPort, logFile }).catch((e: Error) => {
			if (/EADDRINUSE|address already in use|port \d+ is already in use/i.test(e.message)) {
				throw new Error(`port ${opts.n8nPort} is taken: stop what uses it, or pick another with DEV_N8N_PORT=<port> npm start`);
			}
			throw new Error(`n8n did not start; its output is in ${logFile}. Last lines:\n${e.message.split('\n').slice(-15).join('\n')}`);
		});
		step('owner, credential and webhooks checked', 'logging in; checking the credential and the published workflows\' webhooks');
		const rest = await setupOwnerAndLogin(n8n.url, DEV_OWNER);

		// The sandbox keeps webhooks in memory, and n8n 2.x does not run a trigger's webhook
		// registration when it starts (the webhook is still in its database): register the
		// published version's webhook again (registerAgain), never publishing the draft.
		let webhookStatus = '';
		const credentialOk = await followSandboxAddress(rest, state, sandbox.url, note);
		writeState(userFolder, state);
		if (createdExample) {
			say('publishing the example workflow');
			await rest.activate(state.workflowId).catch((e) => {
				webhookStatus = `NOT registered: publishing the example failed: ${firstLine(e)}`;
			});
		} else if (credentialOk) {
			for (const wf of await publishedSandboxWorkflows(rest, state.credentialId)) {
				// The sandbox kept it (its state is saved): nothing to do.
				if (wf.webhookIds.length > 0 && wf.webhookIds.every((w) => webhookHeld(sandbox, n8n!.url, w))) continue;
				say(`registering the sandbox webhook of the published workflow "${wf.name}"`);
				await registerAgain(rest, wf.id, wf.activeVersionId).catch((e) => {
					note(
						`n8n could not register the webhook of "${wf.name}": ${firstLine(e)}. ` +
							`Fix the cause, then open ${n8n!.url}/workflow/${wf.id} and publish it again.`,
					);
				});
			}
		}

		// n8n registers the trigger's webhook during activation; give it a moment.
		const registered = () => {
			const hook = sandbox.webhookOf(DEMO_INSTANCE);
			return hook?.enabled && hook.url.startsWith(`${n8n!.url}/`) ? hook : undefined;
		};
		for (let i = 0; i < 40 && !registered(); i++) await new Promise((r) => setTimeout(r, 250));
		if (registered()) webhookStatus = 'registered by the published example workflow';
		else if (!webhookStatus) {
			const example = await rest.getWorkflow(state.workflowId).catch(() => undefined);
			if (!example) {
				webhookStatus = `NOT registered: the example workflow (id ${state.workflowId}) is gone; remove "workflowId" from ${stateFile(userFolder)} and start again to re-create it`;
			} else if (!example.activeVersionId) {
				webhookStatus = `NOT registered: the example is not published; open it and press Publish (${n8n.url}/workflow/${state.workflowId})`;
			} else if (!credentialOk) {
				webhookStatus = 'NOT registered: the credential does not point to this sandbox (see above)';
			} else {
				webhookStatus = `NOT registered: see ${logFile}`;
			}
		}

		step('', 'ready');
		const started = n8n;
		return {
			n8n: started,
			sandbox,
			rest,
			state,
			logFile,
			webhookStatus,
			notes,
			timings,
			stop: async () => {
				await started.stop().catch(() => undefined);
				await sandbox.close().catch(() => undefined);
			},
		};
	} catch (e) {
		await n8n?.stop().catch(() => undefined);
		await sandbox.close().catch(() => undefined);
		throw e;
	}
}

/** A Ctrl-C within this long of the first is the same press relayed (see stopAll), not a second one. */
export const SECOND_PRESS_AFTER_MS = 1500;

async function main(): Promise<void> {
	const say = (msg: string) => console.log(`[start] ${msg}`);
	const n8nPort = Number(process.env.DEV_N8N_PORT || 5678);
	const sandboxPort = Number(process.env.DEV_SANDBOX_PORT || 8181);
	const version = process.env.DEV_N8N_VERSION || DEFAULT_N8N_VERSION;
	const userFolder = path.resolve(process.env.DEV_USER_FOLDER || path.join(REPO_ROOT, '.n8n-dev'));
	const args = process.argv.slice(2);
	const unknown = args.filter((a) => a !== '--fresh');
	if (unknown.length > 0) {
		console.error(`[start] unknown option ${unknown.join(' ')}; the one option is --fresh (start the sandbox empty)`);
		process.exit(2);
	}

	// If this process is killed (SIGKILL skips every handler), the keeper ends n8n and says so.
	keeperSaysWhenDone('[start] stopped (npm start was ended before it could stop n8n; the keeper ended it)');
	let playground: Playground | undefined;
	let stopping = false;
	let stopAskedAt = 0;
	const stopAll = async (code: number) => {
		if (stopping) {
			// One Ctrl-C reaches this process twice: the terminal signals its whole foreground
			// process group (npm, tsx, this process), and npm and tsx pass the signal on again.
			// The copy comes within milliseconds; a second press the person means comes later.
			if (Date.now() - stopAskedAt < SECOND_PRESS_AFTER_MS) return;
			// A second Ctrl-C: do not wait for n8n's graceful shutdown. The exit hook SIGKILLs it.
			say('forced: killing n8n now');
			keeperSaysWhenDone('[start] stopped (forced)');
			process.exit(130);
		}
		stopping = true;
		stopAskedAt = Date.now();
		say('stopping n8n and the sandbox… (Ctrl-C again, a second later, to force)');
		await playground?.stop();
		say('stopped');
		process.exit(code);
	};
	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));
	process.on('SIGHUP', () => void stopAll(0));

	try {
		playground = await startPlayground({ userFolder, n8nPort, sandboxPort, version, say, fresh: args.includes('--fresh') });
	} catch (e) {
		console.error(`[start] ${e instanceof Error ? e.message : String(e)}`);
		process.exit(1);
	}
	const { n8n, sandbox, state, logFile, webhookStatus, timings } = playground;
	const total = timings.reduce((sum, t) => sum + t.seconds, 0);
	say(`ready after ${total.toFixed(1)} s: ${timings.map((t) => `${t.step} ${t.seconds.toFixed(1)} s`).join(', ')}`);
	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n editor      ${n8n.url}/   (n8n ${version}, pid ${n8n.pid})`);
	console.log(`  login           ${DEV_OWNER.email} / ${DEV_OWNER.password}   (dev only)`);
	console.log(`  example         ${n8n.url}/workflow/${state.workflowId}  "${DEMO_WORKFLOW_NAME}"`);
	console.log(`  sandbox         ${sandbox.url}   instance "${DEMO_INSTANCE}", API key ${DEV_API_KEY}, pid ${process.pid}`);
	console.log(`  sandbox data    ${path.relative(process.cwd(), sandboxStateFile(userFolder)) || sandboxStateFile(userFolder)}   (npm start -- --fresh empties it)`);
	console.log(`  chat page       ${sandbox.url}/chat`);
	console.log(`  webhook         ${webhookStatus}`);
	console.log(`  send a message  npm run sandbox -- send --url ${sandbox.url} --instance ${DEMO_INSTANCE} --from 5511999990000 --text hello`);
	console.log(`  connect a phone Instance → Create, then Connect (QR code as binary); scan it with the chat page's button`);
	console.log(`                  or: npm run sandbox -- scan --url ${sandbox.url} --instance <name>   (README: onboarding recipe)`);
	console.log(`  n8n log         ${path.relative(process.cwd(), logFile) || logFile}`);
	console.log(`  stop            Ctrl-C (again after a second to force)`);
	console.log(`${line}\n`);

	const code = await n8n.exited;
	if (!stopping) {
		say(`n8n exited (${code}); its output is in ${logFile}`);
		await stopAll(1);
	}
}

if (require.main === module) {
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
