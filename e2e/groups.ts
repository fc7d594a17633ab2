/**
 * The end-to-end tier's groups, in the order e2e/run.ts runs them, and which of them the
 * second n8n version runs. Adding a group is one line in E2E_GROUPS:
 *
 *   served('my-group', myChecks),                // a ServedChecks (tools, rest, n8nUrl), as e2e/standalone.ts runs alone
 *   served('my-group', myChecks, 'why 2.41.1 needs it'), // also on the second version (npm run test:e2e:latest)
 *
 * Phases: `cli` groups run before n8n serves (workflows through `n8n execute`), `served`
 * groups while it serves (owner logged in), `stopped` groups after it stopped (its logs).
 *
 * Which groups run: E2E_GROUPS=all (the default: every group), `second-version` (the groups
 * with a reason to run on a second n8n version, what `npm run test:e2e:latest` runs), or a
 * comma list of ids (`E2E_GROUPS=m,v`). A group's reason to run on the second version is
 * what differs between n8n versions in what it checks (n8n's own machinery the package plugs
 * into: waiting runs, forms, the AI agent, the editor's node list, activation, loading) or
 * binary data (that run stores it in `database` mode); the groups without one check the
 * package's requests and answers against the sandbox through n8n's execution engine, which
 * the kept groups run too.
 */
import type { N8nHandle, RestClient } from '../scripts/n8n-runtime';
import type { Report } from './report';
import type { Sandbox } from './expect';
import type { E2eTools, V2Run } from './v2';
import type { BinaryDataMode } from './binaryMode';
import { v2CliChecks, v2ServerChecks } from './v2';
import { actionChecks } from './actions';
import { agentChecks } from './agent';
import { chatMemoryChecks } from './chatMemory';
import { sendAndWaitChecks } from './sendAndWait';
import { binaryModeChecks } from './binaryMode';
import { serverVersionChecks } from './serverVersions';
import { retriedSendChecks } from './retriedSend';
import { campaignChecks } from './campaign';
import { creatorEntryChecks } from './creator';
import { chatbotChecks } from './chatbots';
import { otherRoutesChecks } from './otherRoutes';
import { chatReplyChecks } from './chatReply';
import { collectBurstChecks } from './collectBurst';
import { handOverChecks } from './handOver';
import { agentReviewChecks } from './agentReview';
import { nodeTypeChecks, logChecks } from './loading';
import { triggerChecks } from './trigger';
import { restartChecks } from './restart';
import { recipeChecks } from './recipes';
import { killDuringDeliveriesChecks } from './killDuringDeliveries';
import { oneWebhookChecks } from './oneWebhook';
import { catchUpChecks } from './catchUp';

/** What every group of one tier run gets: the installed package, the documented sandbox and its workflows. */
export interface TierRun {
	report: Report;
	tools: E2eTools;
	version: string;
	userFolder: string;
	tarball: string;
	binaryMode: BinaryDataMode;
	/** the documented-dialect sandbox with instance `demo` */
	sandbox: Sandbox;
	credId: string;
	credName: string;
	actionsId: string;
	replyId: string;
	mappedId: string;
	/** the v2 sandboxes and their workflows, set up on first use */
	v2(): Promise<V2Run>;
}

export interface ServedRun extends TierRun {
	rest: RestClient;
	n8n: N8nHandle;
}

export interface StoppedRun extends TierRun {
	/** n8n's own output while it served */
	serverLog: string;
	/** the server's output and every CLI command's */
	allLogs: string;
}

/** The shape of e2e/standalone.ts's groups, so a group runs alone and in the tier from one function. */
export type GroupChecks = (tools: E2eTools, rest: RestClient, n8nUrl: string, run: ServedRun) => Promise<void>;

interface GroupBase {
	/** a short id for E2E_GROUPS and the timing lines: the check letter(s) or a name */
	id: string;
	/** why this group runs on the second n8n version too; none: the default version only */
	secondVersion?: string;
}
export type E2eGroup =
	| (GroupBase & { phase: 'cli'; run(run: TierRun): Promise<void> })
	| (GroupBase & { phase: 'served'; run(run: ServedRun): Promise<void> })
	| (GroupBase & { phase: 'stopped'; run(run: StoppedRun): Promise<void> });

export const cli = (id: string, run: (run: TierRun) => Promise<void>, secondVersion?: string): E2eGroup => ({ id, phase: 'cli', run, secondVersion });
export const served = (id: string, checks: GroupChecks, secondVersion?: string): E2eGroup => ({
	id,
	phase: 'served',
	run: (run: ServedRun) => checks(run.tools, run.rest, run.n8n.url, run),
	secondVersion,
});
export const stopped = (id: string, run: (run: StoppedRun) => Promise<void>, secondVersion?: string): E2eGroup => ({ id, phase: 'stopped', run, secondVersion });

const ENGINE = 'n8n\'s execution engine and CLI';
export const E2E_GROUPS: E2eGroup[] = [
	// (a) every action operation through `n8n execute`; mapped fields (n8n's stored form of a field reference)
	cli('a', (t) => actionChecks(t.report, t), `${ENGINE}, and how n8n stores a mapped field reference (read without the expression engine)`),
	// (f)–(i) the v2.x operations through `n8n execute`, against a v2 sandbox
	cli('fi', async (t) => v2CliChecks(t.tools, await t.v2())),
	// (l) an AI agent calls Send Text as a tool (a scripted model server on loopback)
	cli('l', async (t) => agentChecks(t.tools, (await t.v2()).sandbox), 'n8n\'s AI Agent and the tool variant it generates of the node'),
	// (mem) the chat memory: Trigger → Collect Burst → AI Agent (scripted model, our memory) → Send Text, three turns, n8n restarted between them (its own n8n)
	cli('mem', (t) => chatMemoryChecks(t.tools), 'n8n\'s AI Agent and the AI node SDK (@n8n/ai-node-sdk) this version ships, which the memory is built with'),
	// (j) a trigger on the v2 sandbox → Download Media → a hash of the file
	served('j', async (tools, rest, _url, t) => v2ServerChecks(tools, await t.v2(), rest), 'binary data: the downloaded file is stored in this run\'s mode and read back'),
	// (m) Send and Wait for Response: waiting, answered through the link, resumed
	served('m', (tools, rest, url, t) => sendAndWaitChecks(tools, rest, t.sandbox, url, t.credId, t.credName), 'n8n\'s waiting runs, signed resume links, forms and the Human-in-the-Loop tool it generates'),
	// (x) every usage recipe, run as docs/recipes/*.json hold it, the files checked against this n8n's naming and saving rules
	served('x', recipeChecks, 'the documented workflows as this version\'s editor names and saves them, imported and run; two of them store files as binary data'),
	// (o) the media checks' binary data went to this run's mode, not memory
	served('o', (tools, rest, _url, t) => binaryModeChecks(tools, rest, t.binaryMode), 'binary data mode itself (database on the second version)'),
	// (p) the echo recipe on 2.3.6, 2.3.7 and 2.4 with LID contacts; (q) credential test, 2.4 not activated
	served('pq', serverVersionChecks),
	// (s) a send retried by n8n's Retry On Fail after a late answer: one message, one id
	served('s', (tools, rest) => retriedSendChecks(tools, rest)),
	// (z) sending to many: pace, numbers checked first, a rate limit recovered, a logout stopping the run
	served('z', (tools, rest) => campaignChecks(tools, rest)),
	// (r) what the node creator shows: the merged entry's description, the first action
	served('r', (tools, rest, url) => creatorEntryChecks(tools, rest, url), 'what n8n\'s editor lists for the package'),
	// (t) Chatbot and Event Integration: every operation chained in one workflow
	served('t', (tools, rest) => chatbotChecks(tools, rest)),
	// (u) every other route: profile, proxy, business, templates, storage, Chatwoot
	served('u', (tools, rest) => otherRoutesChecks(tools, rest)),
	// (v) Send and Wait answered in the chat: the trigger hands the reply to the waiting run
	served('v', chatReplyChecks, 'n8n\'s waiting runs resumed through the trigger, workflow static data, and a file handed to the run as binary data'),
	// (y) Collect Burst: three messages get one reply, a later one its own, a voice note reaches Download Media
	served('y', collectBurstChecks),
	// (ho) Collect Burst silent while a person answers: the contact, the owner on the phone, the contact again
	served('ho', handOverChecks),
	// (w) a person approves or declines an AI agent's Send Text on WhatsApp (Human-in-the-Loop tool)
	served('w', (tools, rest, url) => agentReviewChecks(tools, rest, url), 'n8n\'s AI Agent with the Human-in-the-Loop tool n8n generates'),
	// (kill) n8n killed (SIGKILL) while deliveries arrive: no acknowledged message lost, none handled twice
	served('kill', (tools) => killDuringDeliveriesChecks(tools), 'when n8n answers a trigger\'s webhook (after it recorded the execution) and how it keeps executions a kill cut short'),
	// (one) two workflows on one instance: the second's publish fails saying why, the first answers, across a restart
	served('one', (tools) => oneWebhookChecks(tools), 'n8n\'s background publication (its status and the trigger\'s error) and what a restart runs of a trigger'),
	// (catchup) n8n stopped while messages are stored: Catch Up brings each in once, in order; off, none
	served('catchup', (tools) => catchUpChecks(tools), 'that n8n starts a webhook trigger\'s trigger() at publish and on every start, and refuses an execution whose deduplication key it has'),
	// (c) node types n8n serves
	served('c', (_tools, rest, _url, t) => nodeTypeChecks(t.report, rest), 'that n8n loads the package\'s node types and their tool variants'),
	// (b) trigger lifecycle, with (d) the chat page in a browser while it is active
	served('bd', (_tools, rest, url, t) => triggerChecks(t.report, rest, t.sandbox, url, t.replyId), 'n8n\'s activation and deactivation of a trigger (webhook registration)'),
	// (c) logs: no warning about the package
	stopped('c-logs', (t) => logChecks(t.report, t.serverLog, t.allLogs), 'the package loads on this n8n without a warning or deprecation'),
	// (e) npm start: restarts keep the user's work; other ports are followed (npm start runs the default version)
	stopped('e', (t) => restartChecks(t.report, t.version, t.tarball)),
];

/**
 * The groups a run selects (see the file's comment), in list order; throws on an unknown id,
 * so a misspelled selection is not a quietly smaller run.
 */
export function selectGroups(selection = process.env.E2E_GROUPS || 'all', groups: readonly E2eGroup[] = E2E_GROUPS): E2eGroup[] {
	const twice = groups.map((g) => g.id).filter((id, i, ids) => ids.indexOf(id) !== i);
	if (twice.length > 0) throw new Error(`e2e/groups.ts: the id ${twice.join(', ')} is given to more than one group (ids select groups and name their times)`);
	if (selection === 'all') return [...groups];
	if (selection === 'second-version') return groups.filter((g) => g.secondVersion);
	const ids = selection.split(',').map((s) => s.trim()).filter(Boolean);
	const unknown = ids.filter((id) => !groups.some((g) => g.id === id));
	if (unknown.length > 0) throw new Error(`E2E_GROUPS: no group ${unknown.join(', ')} (groups: ${groups.map((g) => g.id).join(', ')}, or all, second-version)`);
	return groups.filter((g) => ids.includes(g.id));
}
