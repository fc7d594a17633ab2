/**
 * (x) The usage recipes, run in a real n8n exactly as docs/recipes/*.json hold them: the files
 * are first rebuilt with this n8n's own rules (node names from `NodeHelpers.makeNodeName`, only
 * non-default parameters, e2e/recipeBook.ts) and must be identical; then each file is saved
 * through n8n's REST API as the editor saves an imported file (the credential found by its name,
 * "Sandbox (dev)", as in `npm start`) and run against a v2 sandbox playing Evolution API 2.3.6
 * (the release that puts a LID contact's LID in `remoteJid`): onboarding, a file from a Code
 * node, the echo reply to a contact known by LID, Download Media from the trigger, Send and
 * Wait approved through its link, Reply in the Chat, Collect Burst before an AI agent (its
 * OpenAI Chat Model on a scripted model server, e2e/modelServer.ts), the same agent with the
 * chat as its memory (two turns), the hand-over to a person (the owner's message from the phone
 * silences that chat only), the campaign (two
 * contacts: one sent, one without an account, so no pause is waited), and the queue-mode
 * dedupe pattern on a Redis (Debian's redis-server, as the queue tier uses, installed when
 * missing).
 *
 *   tsx e2e/recipes.ts [version]          runs (x) alone (packs, installs, starts n8n)
 *   tsx e2e/recipes.ts write [version]    rewrites docs/recipes/*.json from e2e/recipeBook.ts
 *                                         with that installed n8n's rules and node types
 */
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEFAULT_N8N_VERSION, executeWorkflow, executionFailure, freePort, nodeOutputs, request, resolveN8nVersion, runtimeDir, type RestClient } from '../scripts/n8n-runtime';
import { ensureServiceBinaries, redisCommands, startRedis } from '../scripts/services';
import { ACTION, TRIGGER, CAMPAIGN_CONTACTS, CODE_FILE, OPENAI_CREDENTIAL, RECIPES, RECIPE_DIR, REDIS_CREDENTIAL, SANDBOX_CREDENTIAL, buildRecipe, readRecipe, recipePath, referencedNodeNames, type EditorRules } from './recipeBook';
import { lastConversation } from './chatMemory';
import { startModelServer, textOf, type ChatRequest } from './modelServer';
import { unflatten } from './serverVersions';
import { runAlone } from './standalone';
import type { ServedRun } from './groups';
import type { E2eTools } from './v2';

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports */
type Sandbox = any;

/** n8n's rules from the installed n8n-workflow of `version`, over the given node type descriptions. */
export function rulesOf(version: string, descriptions: any[]): EditorRules {
	const { NodeHelpers } = require(path.join(runtimeDir(version), 'node_modules', 'n8n-workflow'));
	return {
		makeNodeName: NodeHelpers.makeNodeName,
		getNodeParameters: NodeHelpers.getNodeParameters,
		describe(type, typeVersion) {
			const found = descriptions.find((d) => d.name === type && (Array.isArray(d.version) ? d.version.includes(typeVersion) : d.version === typeVersion));
			if (!found) throw new Error(`n8n ${version} has no node type ${type} version ${typeVersion}`);
			return found;
		},
	};
}

const PHONE = '5511944440001';
const PHONE_JID = `${PHONE}@s.whatsapp.net`;
const LID = '123456789012345@lid';
const MANAGER = '5511933330000';
const CUSTOMER = '5511922220000';
const BURSTING = '5511911110000';
const REMEMBERING = '5511966660000';
const HANDED = '5511988880000';
const ANSWERED = '5511988881111';

/** The AI agent's scripted model: it answers the prompt (the burst's text) back, so the reply shows what it was asked. */
const answerThePrompt = (chat: ChatRequest) => ({ content: `Answer to: ${textOf(chat.messages.filter((m) => m.role === 'user').at(-1)?.content)}` });

const sent = (sandbox: Sandbox, p: string): any[] => (sandbox.requests as any[]).filter((r) => r.method === 'POST' && r.path === p);
const texts = (sandbox: Sandbox, to: string): string[] => sent(sandbox, '/message/sendText/demo').filter((r) => String(r.body?.number ?? '').startsWith(to)).map((r) => String(r.body?.text));

async function executionsOf(rest: RestClient, workflowId: string): Promise<Array<{ id: string; status: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = (await rest.call('GET', `/executions?filter=${filter}&limit=10`)) as { results: Array<{ id: string; status: string }> };
	return page.results;
}

async function lastExecution(rest: RestClient, workflowId: string): Promise<{ id: string; status: string } | undefined> {
	return (await executionsOf(rest, workflowId))[0];
}

/** The run data of the workflow's last execution once it has this status. */
async function finished(tools: E2eTools, rest: RestClient, workflowId: string, status = 'success'): Promise<any> {
	const execution = await tools.waitFor(`an execution with status ${status}`, async () => {
		const last = await lastExecution(rest, workflowId);
		return last?.status === status ? last : undefined;
	}, 30000);
	const full = await rest.call('GET', `/executions/${execution.id}`);
	return typeof full.data === 'string' ? unflatten(full.data) : full.data;
}

/** Publishes a trigger's workflow and waits until the sandbox's instance webhook is this trigger's (its webhook id in the URL) and serves. */
async function publish(tools: E2eTools, rest: RestClient, sandbox: Sandbox, n8nUrl: string, id: string): Promise<void> {
	const webhookId = String((await rest.getWorkflow(id)).nodes.find((n: any) => n.type === TRIGGER)?.webhookId);
	await rest.activate(id);
	const hook = await tools.waitFor(`the instance's webhook on this n8n, with the trigger's webhook id ${webhookId}`, () => {
		const h = sandbox.webhookOf('demo');
		return h?.enabled && String(h.url).startsWith(`${n8nUrl}/webhook/`) && String(h.url).includes(webhookId) ? h : undefined;
	}, 15000);
	const url = new URL(String(hook.url));
	await tools.waitFor('the production webhook to serve', async () => ((await request('POST', `${url.origin}${url.pathname}`, {})).status !== 404 ? true : undefined), 30000);
}

/**
 * Unpublishes a trigger's workflow and waits until its trigger has switched the instance's
 * webhook off: n8n does it in the background, and a sandbox closed before would leave n8n a
 * "deregistration failed" error in its log.
 */
async function unpublish(tools: E2eTools, rest: RestClient, sandbox: Sandbox, id: string): Promise<void> {
	await rest.deactivate(id);
	await tools.waitFor('the instance\'s webhook switched off', () => sandbox.webhookOf('demo')?.enabled === false, 15000);
}

async function webhookPost(tools: E2eTools, n8nUrl: string, p: string, body: unknown): Promise<void> {
	await tools.waitFor(`POST /webhook/${p} answered 200`, async () => ((await request('POST', `${n8nUrl}/webhook/${p}`, body)).status === 200 ? true : undefined), 15000);
}

export async function recipeChecks(tools: E2eTools, rest: RestClient, n8nUrl: string, run?: ServedRun): Promise<void> {
	const ids: Record<string, string> = {};
	const { startSandbox } = (await import('../sandbox/server')) as { startSandbox: (o: unknown) => Promise<Sandbox> };
	const sandbox = await startSandbox({ dialect: 'v2', version: '2.3.6', instances: [{ name: 'demo' }], delivery: { attempts: 3, backoffMs: 500, timeoutMs: 30000 } });
	// Installed when missing (bash .ci/services.sh, as the queue tier does; npm test installs it before the e2e stage).
	const redisBin = (await ensureServiceBinaries({ install: true })).redisServer;
	const redisDir = fs.mkdtempSync(path.join(os.tmpdir(), 'recipes-redis-'));
	const redis = redisBin ? await startRedis(redisBin, redisDir) : undefined;
	const model = await startModelServer(answerThePrompt, await freePort());
	try {
		const made = await rest.call('POST', '/credentials', { name: SANDBOX_CREDENTIAL, type: 'messagingInstanceApi', data: { baseUrl: sandbox.url, apiKey: sandbox.apiKey, dialect: 'v2' } });
		const credId = String(made.id);
		await rest.call('POST', '/credentials', { name: OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: `sk-e2e-${randomBytes(8).toString('hex')}`, url: model.url, header: false } });
		if (redis) await rest.call('POST', '/credentials', { name: REDIS_CREDENTIAL, type: 'redis', data: { host: redis.host, port: redis.port, database: 1, password: '', user: '', ssl: false } });

		const built = await tools.check(`(x) every file in docs/recipes/ is what n8n ${tools.version}'s editor saves: node names by n8n's naming rule, only non-default parameters, every $('…') names a node of the file`, async () => {
			const rules = rulesOf(tools.version, await rest.nodeTypes());
			for (const recipe of RECIPES) {
				const file = readRecipe(recipe.file);
				assert.deepEqual(file, JSON.parse(JSON.stringify(buildRecipe(recipe, rules))), `docs/recipes/${recipe.file}.json differs from the editor's build (rewrite: tsx e2e/recipes.ts write)`);
				const names = file.nodes.map((n: any) => n.name);
				for (const ref of referencedNodeNames(file)) assert.ok(names.includes(ref), `${recipe.file}: $('${ref}') names no node (nodes: ${names.join(', ')})`);
			}
		});
		if (!built) return;

		await tools.check('(x) each file saved as the editor saves an imported workflow: n8n finds the credential "Sandbox (dev)" by its name', async () => {
			for (const recipe of RECIPES) {
				if (recipe.file === 'queue-mode-dedupe' && !redis) continue;
				const saved = await rest.call('POST', '/workflows', readRecipe(recipe.file));
				ids[recipe.file] = String(saved.id);
				const stored = await rest.getWorkflow(ids[recipe.file]);
				for (const node of stored.nodes.filter((n: any) => n.type === ACTION)) assert.equal(node.credentials?.messagingInstanceApi?.id, credId, `${recipe.file}: ${node.name} has ${JSON.stringify(node.credentials)}`);
				for (const node of stored.nodes.filter((n: any) => n.credentials)) {
					for (const [type, ref] of Object.entries<any>(node.credentials)) assert.ok(ref?.id, `${recipe.file}: ${node.name}'s ${type} credential "${ref?.name}" was not found by its name`);
				}
			}
		});
		if (!ids.onboarding) return;

		await tools.check('(x) onboarding, run twice: Create an instance gives the token, then "already in use" (On Error: Continue); Connect an instance, named through Create\'s parameter, gives the QR code both times', async () => {
			const first = await executeWorkflow(tools.userFolder, ids.onboarding, tools.version);
			assert.ok(first.ok, executionFailure(first));
			let out = nodeOutputs(first.data);
			assert.equal(typeof out['Create an instance']?.[0]?.json?.hash, 'string', JSON.stringify(out['Create an instance']).slice(0, 300));
			assert.match(String(out['Connect an instance']?.[0]?.json?.code), /^2@/, JSON.stringify(out['Connect an instance']).slice(0, 300));
			assert.equal((out['Connect an instance'][0] as any).binary?.data?.mimeType, 'image/png');
			assert.deepEqual(sent(sandbox, '/instance/create').map((r) => r.body.instanceName), ['shop']);
			const second = await executeWorkflow(tools.userFolder, ids.onboarding, tools.version);
			assert.ok(second.ok, executionFailure(second));
			out = nodeOutputs(second.data);
			assert.match(JSON.stringify(out['Create an instance']?.[0]?.json), /already in use/);
			assert.match(String(out['Connect an instance']?.[0]?.json?.code), /^2@/, JSON.stringify(out['Connect an instance']).slice(0, 300));
		});

		await tools.check('(x) a file made in a Code node goes out with Send Media: its bytes, name and type, to the number in the item', async () => {
			const result = await executeWorkflow(tools.userFolder, ids['media-from-code'], tools.version);
			assert.ok(result.ok, result.stdout.slice(-1500));
			const [media] = sent(sandbox, '/message/sendMedia/demo');
			assert.deepEqual(
				{ number: media?.body?.number, mediatype: media?.body?.mediatype, mimetype: media?.body?.mimetype, fileName: media?.body?.fileName, caption: media?.body?.caption, text: Buffer.from(String(media?.body?.media), 'base64').toString() },
				{ number: CODE_FILE.number, mediatype: 'document', mimetype: CODE_FILE.mimeType, fileName: CODE_FILE.fileName, caption: "Today's report", text: CODE_FILE.text },
			);
			assert.ok(media.status < 300, `the sandbox answered ${media.status}`);
		});

		const echoing = await tools.check('(x) echo reply, published: a contact known by LID (2.3.6 puts the LID in remoteJid) gets one reply, "You said: …", at the phone JID', async () => {
			await publish(tools, rest, sandbox, n8nUrl, ids['echo-reply']);
			const text = `hello ${randomBytes(3).toString('hex')}`;
			const delivery = await sandbox.injectMessage('demo', { from: PHONE, lid: LID, text, pushName: 'Lia' });
			assert.equal(delivery?.body?.data?.key?.remoteJid, LID, JSON.stringify(delivery?.body?.data?.key));
			const reply = await tools.waitFor('the reply', () => sent(sandbox, '/message/sendText/demo').find((r) => r.body?.text === `You said: ${text}`), 30000);
			assert.equal(reply.body.number, PHONE_JID);
			await new Promise((resolve) => setTimeout(resolve, 1500));
			assert.equal(sent(sandbox, '/message/sendText/demo').filter((r) => r.body?.text === `You said: ${text}`).length, 1);
		});

		if (echoing) {
			await tools.check('(x) Reply in the Chat: the webhook\'s run asks with the choices and waits; the contact\'s "1" resumes it with choice "Yes", the If sends "Booked for Friday.", and the echo does not answer the reply', async () => {
				await rest.activate(ids['send-and-wait-chat-reply']);
				await webhookPost(tools, n8nUrl, 'order', { phone: CUSTOMER, id: 'A-17' });
				const question = await tools.waitFor('the question', () => texts(sandbox, CUSTOMER).find((t) => t.startsWith('Deliver order A-17 on Friday?')), 20000);
				assert.match(question, /\n1\. Yes\n2\. No\n/);
				await tools.waitFor('the run waiting', async () => ((await lastExecution(rest, ids['send-and-wait-chat-reply']))?.status === 'waiting' ? true : undefined), 15000);
				await sandbox.injectMessage('demo', { from: CUSTOMER, text: '1', pushName: 'Bo' });
				const data = await finished(tools, rest, ids['send-and-wait-chat-reply']);
				const asked = data.resultData.runData['Send message and wait for response'][0].data.main[0][0].json;
				assert.deepEqual({ choice: asked.choice, text: asked.text, chatId: asked.chatId }, { choice: 'Yes', text: '1', chatId: `${CUSTOMER}@s.whatsapp.net` });
				assert.deepEqual(texts(sandbox, CUSTOMER).filter((t) => !t.startsWith('Deliver order')), ['Booked for Friday.']);
				await rest.deactivate(ids['send-and-wait-chat-reply']);
			});
		}

		await tools.check('(x) approval: the webhook\'s run sends the question with Approve and Decline links and waits; the Approve link resumes it and the If\'s true output has approved: true', async () => {
			await rest.activate(ids['send-and-wait-approval']);
			await webhookPost(tools, n8nUrl, 'expense', { manager: MANAGER, amount: 120, name: 'Ana' });
			const question = await tools.waitFor('the question', () => texts(sandbox, MANAGER).find((t) => t.startsWith('Approve 120 EUR for Ana?')), 20000);
			const links = [...question.matchAll(/https?:\/\/\S+\/webhook-waiting\/\S+/g)].map((m) => m[0]);
			assert.equal(links.length, 2, question);
			await tools.waitFor('the run waiting', async () => ((await lastExecution(rest, ids['send-and-wait-approval']))?.status === 'waiting' ? true : undefined), 15000);
			const answered = await fetch(links[0], { method: 'POST', body: new FormData(), headers: { 'user-agent': 'Mozilla/5.0 e2e' } });
			assert.equal(answered.status, 200, await answered.text());
			const data = await finished(tools, rest, ids['send-and-wait-approval']);
			const [yes, no] = data.resultData.runData.If[0].data.main;
			assert.equal(yes?.[0]?.json?.data?.approved, true, JSON.stringify(data.resultData.runData.If[0].data.main).slice(0, 300));
			assert.deepEqual(no ?? [], []);
			await rest.deactivate(ids['send-and-wait-approval']);
		});
		if (echoing) await unpublish(tools, rest, sandbox, ids['echo-reply']);

		await tools.check('(x) Download Media from the trigger (Media as Binary off): the file of the incoming message, its bytes, type and name, as binary data', async () => {
			await publish(tools, rest, sandbox, n8nUrl, ids['download-media']);
			const pdf = `%PDF-1.4\n% invoice ${randomBytes(4).toString('hex')}\n%%EOF\n`;
			const delivery = await sandbox.injectMessage('demo', { from: PHONE, media: { kind: 'document', mimetype: 'application/pdf', fileName: 'invoice.pdf', base64: Buffer.from(pdf).toString('base64') } });
			assert.equal(delivery?.body?.data?.message?.base64, undefined, 'the delivery carried the file (Media as Binary is off)');
			const data = await finished(tools, rest, ids['download-media']);
			const asked = sent(sandbox, '/chat/getBase64FromMediaMessage/demo').at(-1);
			assert.equal(asked?.body?.message?.key?.id, delivery.body.data.key.id);
			const file = data.resultData.runData['Download the file of a message'][0].data.main[0][0].binary.data;
			assert.deepEqual({ mimeType: file.mimeType, fileName: file.fileName }, { mimeType: 'application/pdf', fileName: 'invoice.pdf' });
			const bytes = await rest.raw('GET', `/binary-data?id=${encodeURIComponent(file.id)}&action=download`);
			assert.equal(bytes.status, 200);
			assert.equal(createHash('sha256').update(bytes.body).digest('hex'), createHash('sha256').update(pdf).digest('hex'));
			await unpublish(tools, rest, sandbox, ids['download-media']);
		});

		await tools.check('(x) Collect Burst before an AI agent, published: three messages 1 s apart get one answer, the model asked once with the whole burst, sent to the chatId of "Collect a burst of messages"', async () => {
			await publish(tools, rest, sandbox, n8nUrl, ids['collect-burst']);
			const words = ['hi', 'I need help', `with my order ${randomBytes(2).toString('hex')}`];
			for (const [i, text] of words.entries()) {
				if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
				await sandbox.injectMessage('demo', { from: BURSTING, text, pushName: 'Cy' });
			}
			// Each run waits Quiet Seconds (8) + 2 s; the last message's run answers, the two before end without output.
			const reply = await tools.waitFor('the answer to the burst', () => sent(sandbox, '/message/sendText/demo').find((r) => String(r.body?.number).startsWith(BURSTING)), 45000);
			assert.equal(reply.body.number, `${BURSTING}@s.whatsapp.net`);
			assert.equal(reply.body.text, `Answer to: ${words.join('\n')}`);
			await tools.waitFor('the burst\'s three runs finished', async () => {
				const runs = await executionsOf(rest, ids['collect-burst']);
				return runs.length === words.length && runs.every((run) => run.status === 'success') ? true : undefined;
			}, 30000);
			assert.equal(texts(sandbox, BURSTING).length, 1, JSON.stringify(texts(sandbox, BURSTING)));
			assert.equal(model.chats().length, 1, `the model was asked ${model.chats().length} times`);
			await unpublish(tools, rest, sandbox, ids['collect-burst']);
		});

		await tools.check('(x) an AI agent that remembers, published: the second turn\'s model request holds the first turn (the contact\'s message, the answer sent), read from the chat by Messaging Instance Chat Memory', async () => {
			await publish(tools, rest, sandbox, n8nUrl, ids['ai-agent-memory']);
			const turns = [`I want a red bike ${randomBytes(2).toString('hex')}`, 'how much is it?'];
			for (const text of turns) {
				await sandbox.injectMessage('demo', { from: REMEMBERING, text, pushName: 'Di' });
				await tools.waitFor(`the answer to "${text}"`, () => (texts(sandbox, REMEMBERING).includes(`Answer to: ${text}`) ? true : undefined), 45000);
			}
			assert.deepEqual(lastConversation(model), [
				{ role: 'user', text: turns[0] },
				{ role: 'assistant', text: `Answer to: ${turns[0]}` },
				{ role: 'user', text: turns[1] },
			]);
			await unpublish(tools, rest, sandbox, ids['ai-agent-memory']);
		});

		await tools.check('(x) hand over to a person, published: the owner writes in a chat from the phone, and that contact\'s next message gets no reply; another contact writing at the same time is answered; no run fails', async () => {
			await publish(tools, rest, sandbox, n8nUrl, ids['hand-over']);
			// The owner on the phone: a fromMe upsert with an iPhone's message id (the sandbox's default).
			await sandbox.injectMessage('demo', { from: HANDED, text: 'Hi Eva, I am checking it for you', fromMe: true });
			const [handed, answered] = [`is my order shipped? ${randomBytes(2).toString('hex')}`, `hello ${randomBytes(2).toString('hex')}`];
			await Promise.all([sandbox.injectMessage('demo', { from: HANDED, text: handed, pushName: 'Eva' }), sandbox.injectMessage('demo', { from: ANSWERED, text: answered, pushName: 'Fe' })]);
			await tools.waitFor('the other contact\'s answer', () => (texts(sandbox, ANSWERED).includes(`You said: ${answered}`) ? true : undefined), 45000);
			await tools.waitFor('both contacts\' runs finished', async () => {
				const runs = await executionsOf(rest, ids['hand-over']);
				return runs.length === 2 && runs.every((run) => run.status === 'success') ? true : undefined;
			}, 30000);
			assert.deepEqual(texts(sandbox, HANDED), [], 'the bot talked over the person');
			await unpublish(tools, rest, sandbox, ids['hand-over']);
		});

		await tools.check('(x) campaign: one Check Numbers request first; Ana is sent with typing (delay 2–8 s) and comes out "sent", Bo has no account and comes out "skipped"; the If passes the sent one', async () => {
			const [ana, bo] = CAMPAIGN_CONTACTS;
			const result = await executeWorkflow(tools.userFolder, ids.campaign, tools.version);
			assert.ok(result.ok, executionFailure(result));
			const requests = (sandbox.requests as any[]).filter((r) => r.method === 'POST' && /^\/(chat\/whatsappNumbers|message\/sendText)\/demo$/.test(r.path) && JSON.stringify(r.body).includes('51197777100'));
			assert.deepEqual(requests.map((r) => r.path), ['/chat/whatsappNumbers/demo', '/message/sendText/demo']);
			assert.deepEqual([...requests[0].body.numbers].sort(), [ana.phone, bo.phone].sort());
			assert.deepEqual({ number: requests[1].body.number, text: requests[1].body.text }, { number: ana.phone, text: `Hello ${ana.name}, our shop opens on Monday.` });
			assert.ok(requests[1].body.delay >= 2000 && requests[1].body.delay <= 8000, `delay ${requests[1].body.delay}`);
			const out = nodeOutputs(result.data);
			assert.deepEqual(out['Send a text message'].map((item) => item.json.outcome), ['sent', 'skipped'], JSON.stringify(out['Send a text message']).slice(0, 500));
			assert.deepEqual(out.If.map((item) => item.json.outcome), ['sent']);
		});

		if (!redis) {
			const why = 'no redis-server (install with: bash .ci/services.sh)';
			if (process.env.CI === 'true') await tools.check('(x) queue-mode dedupe recipe', () => assert.fail(why));
			else if (run) run.report.skip('(x) queue-mode dedupe recipe', why);
			else console.log(`SKIP (x) queue-mode dedupe recipe: ${why}`);
			return;
		}
		await tools.check('(x) queue-mode dedupe: Redis counts the message\'s dedupeKey (database 1, 1 day), the If passes the first copy, the reply goes to the trigger\'s chatId', async () => {
			await publish(tools, rest, sandbox, n8nUrl, ids['queue-mode-dedupe']);
			const text = `once ${randomBytes(3).toString('hex')}`;
			await sandbox.injectMessage('demo', { from: PHONE, text });
			const reply = await tools.waitFor('the reply', () => sent(sandbox, '/message/sendText/demo').find((r) => r.body?.text === `You said: ${text}`), 30000);
			assert.equal(reply.body.number, PHONE_JID);
			const keys = (await redisCommands(redis.port, [['SELECT', '1'], ['KEYS', 'messaging-dedupe:*']])) as string[];
			assert.equal(keys.length, 1, JSON.stringify(keys));
			const count = await redisCommands(redis.port, [['SELECT', '1'], ['GET', keys[0]]]);
			const ttl = await redisCommands(redis.port, [['SELECT', '1'], ['TTL', keys[0]]]);
			assert.equal(String(count), '1');
			assert.ok(Number(ttl) > 86000 && Number(ttl) <= 86400, `TTL ${ttl}`);
			await unpublish(tools, rest, sandbox, ids['queue-mode-dedupe']);
		});
	} finally {
		for (const id of Object.values(ids)) await rest.deactivate(id).catch(() => undefined);
		await tools.waitFor('no webhook of this group left on', () => sandbox.webhookOf('demo')?.enabled !== true, 15000).catch(() => undefined);
		await sandbox.close();
		await model.close();
		await redis?.stop().catch(() => undefined);
		fs.rmSync(redisDir, { recursive: true, force: true });
	}
}

/** Rewrites docs/recipes/*.json with the installed n8n's rules (n8n's own node types, n8n-nodes-base's and its AI nodes', and this package's). */
function writeFiles(version: string): void {
	const typesOf = (pkg: string): any[] =>
		(JSON.parse(fs.readFileSync(path.join(runtimeDir(version), 'node_modules', pkg, 'dist', 'types', 'nodes.json'), 'utf8')) as any[]).map((d) => ({ ...d, name: `${pkg}.${d.name}` }));
	const ours = ['MessagingInstance/MessagingInstance.node.ts', 'MessagingInstanceTrigger/MessagingInstanceTrigger.node.ts', 'MessagingInstanceChatMemory/MessagingInstanceChatMemory.node.ts'].map((file) => {
		const exported = require(path.resolve(__dirname, '..', 'nodes', file));
		const NodeClass = Object.values(exported)[0] as new () => { description: any };
		const description = new NodeClass().description;
		return { ...description, name: `n8n-nodes-messaging-instance.${description.name}` };
	});
	const rules = rulesOf(version, [...typesOf('n8n-nodes-base'), ...typesOf('@n8n/n8n-nodes-langchain'), ...ours]);
	fs.mkdirSync(RECIPE_DIR, { recursive: true });
	for (const recipe of RECIPES) {
		fs.writeFileSync(recipePath(recipe.file), JSON.stringify(buildRecipe(recipe, rules), null, '\t') + '\n');
		console.log(`wrote ${path.relative(process.cwd(), recipePath(recipe.file))}`);
	}
}

if (require.main === module) {
	if (process.argv[2] === 'write') writeFiles(resolveN8nVersion(process.argv[3] || process.env.E2E_N8N_VERSION || DEFAULT_N8N_VERSION));
	else void runAlone('recipes', recipeChecks);
}
