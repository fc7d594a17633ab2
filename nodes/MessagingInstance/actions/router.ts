import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { inputError, operationError, readableServerText, serverMessages } from '../../shared/errors';
import { Redactor, secretsIn, secretsOfUrl } from '../../shared/redact';
import { pause as pauseFor } from '../../shared/pause';
import { apiRequest, cancelSignalOf, openConnection } from '../../shared/transport';
import { CHECK_NUMBERS_PATH, CLOUD_API_INTEGRATION, integrationIn, readWebhook } from '../../shared/routes';
import { explainMissingRoute, isOlder, serverVersionOf, versionOrNewer } from '../../shared/serverVersion';
import { dialectOf, type Dialect } from '../../shared/dialect';
import { deriveSecret } from '../../shared/secret';
import { findOperation, labelsOf } from './index';
import { operationTitle } from './resources';
import { ListShapeError, listShapeError, readPages } from './pages';
import { ItemParameters, ParameterSource } from './parameters';
import { FileOutput } from './fileOutput';
import { findSentMessage, messageIdOf, nodeMessageId, runIndexOf, SendRecord } from './message/messageId';
import { Campaign } from './message/sending/campaign';
import { helperAnswerProblem, helperRequestsOf, isHelperRoute, sendHelper } from './requests';
import type { BuiltRequest, Operation, OperationRun, Refusal } from './types';
import { withStoredObject } from './updates';

/** One helper request of an item: its route when the declaration has several, its instance, body and query. */
interface HelperCall {
	route?: string;
	instance?: string;
	body?: IDataObject;
	qs?: IDataObject;
}

/** The operation's request for one item: its whole request, or its body and query. */
async function buildRequest(operation: Operation, params: ItemParameters, dialect: Dialect, run: OperationRun): Promise<BuiltRequest> {
	if (operation.buildRequest) return await operation.buildRequest(params, dialect, run);
	return { body: await operation.buildBody?.(params, dialect), query: operation.buildQuery?.(params, dialect) };
}

/** The id the server gave the sent message (`key.id`): 2.3.x servers choose their own. */
function sentIdOf(result: IDataObject): string | undefined {
	const id = (result.key as { id?: unknown } | undefined)?.id;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

function asItemJson(response: unknown): IDataObject {
	if (response === undefined || response === null) return { success: true };
	if (typeof response === 'object' && !Array.isArray(response)) return response as IDataObject;
	return { data: response as JsonObject };
}

/**
 * Whether a 2xx answer says the request failed (`{ error: true, message }`, `{ error: "text" }`,
 * `{ error: { message } }`), and with which message of the server's.
 */
function failedDespiteOk(operation: Operation, response: unknown, redactor: Redactor): string | undefined {
	if (!operation.errorInOkResponse || !response || typeof response !== 'object' || Array.isArray(response)) return undefined;
	const error = (response as { error?: unknown }).error;
	const failed =
		error === true ||
		(typeof error === 'string' && error.trim() !== '') ||
		(error !== null && typeof error === 'object');
	if (!failed) return undefined;
	// `{ error: { message } }` carries its text one level down.
	const answer = response as IDataObject;
	const source = error !== null && typeof error === 'object' && answer.message === undefined && answer.response === undefined ? error : response;
	const messages = serverMessages(source).filter((text) => text.trim() !== '' && text !== 'true');
	return messages.length > 0 ? readableServerText(redactor.text(messages.join('; '))) : 'The server reported an error';
}

/**
 * The item's output without secrets. The one exception: the field an operation declares as
 * the secret the user asked for (the new instance's token from Create) is output as it came.
 */
function redactedOutput(operation: Operation, redactor: Redactor, json: IDataObject): IDataObject {
	const kept = operation.outputsSecretField;
	if (!kept || !(kept in json)) return redactor.deep(json);
	const { [kept]: secret, ...rest } = json;
	return { ...redactor.deep(rest), [kept]: secret };
}

/**
 * The one item loop: each input item runs the operation once, its outputs are paired with it,
 * and with Continue On Fail a failed item becomes an error item while the others go on.
 */
export async function runOperation(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, operationName);
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not known`);
	}
	const startedAt = Date.now();
	const connection = await openConnection(this);
	const dialect = connection.dialect;
	const route = typeof operation.path === 'function' ? operation.path(dialect) : operation.path;
	const parameters = new ParameterSource(this);
	const labels = labelsOf(operation);
	const output: INodeExecutionData[] = [];
	const connectionSecrets = [connection.apiKey, ...secretsOfUrl(connection.baseUrl)];
	const runIndex = operation.carriesMessageId ? runIndexOf(this) : 0;
	// Every secret any item's request or answer carried is hidden in every item of the
	// execution: item 1's error may echo the bot key item 0 sent.
	const itemSecrets = new Set<string>(connectionSecrets);
	let redactor = new Redactor(itemSecrets);
	const learn = (value: unknown) => {
		const found = secretsIn(value).filter((secret) => !itemSecrets.has(secret));
		if (found.length === 0) return;
		for (const secret of found) itemSecrets.add(secret);
		redactor = new Redactor(itemSecrets);
	};
	/**
	 * The one door of every helper request (the read before a write, a look-up, the account
	 * check, the instance's integration or webhook, a chat's history): only those the operation
	 * declares (./requests.ts) are sent; the secrets the request carries are learnt before it
	 * goes and those of its answer before the next one; an answer of another shape than declared
	 * fails the item before anything is written or sent, naming the request.
	 */
	const helpers = helperRequestsOf(operation);
	const askHelper = async (key: string, itemIndex: number, call: HelperCall): Promise<unknown> => {
		const helper = Object.prototype.hasOwnProperty.call(helpers, key) ? helpers[key] : undefined;
		const route = call.route ?? helper?.routes[0] ?? key;
		if (!helper || !isHelperRoute(helper, route)) {
			throw new NodeOperationError(this.getNode(), `${operationTitle(operation)} made a request it does not declare (${helper ? `${helper.name}: ${route}` : key}); nothing was sent`, {
				itemIndex,
				description: 'Every request an operation makes is declared with its route and the answer it must be (actions/requests.ts). This is a defect of the node: please report it.',
			});
		}
		const instance = helper.scope === 'server' ? undefined : call.instance;
		const named = `${helper.name} (${helper.method} ${instance === undefined ? route : `${route}/${instance}`})`;
		learn(call.body);
		learn(call.qs);
		let answer: unknown;
		try {
			answer = await sendHelper(this, connection, helper, { route, instance, body: call.body, qs: call.qs, secrets: [...itemSecrets] }, itemIndex);
		} catch (failed) {
			const error = failed as Error & { description?: string | null; httpCode?: string | null };
			if (helper.hint) error.description = helper.hint(error.httpCode ?? undefined);
			throw error;
		}
		learn(answer);
		const problem = helperAnswerProblem(helper, answer, call.body);
		if (problem === undefined) return answer;
		throw new NodeOperationError(this.getNode(), redactor.text(`${named} answered ${problem}; ${helper.unlessAnswered}`), {
			itemIndex,
			description:
				helper.hint?.(undefined) ??
				'The server answered with success, but not with what this request reads, so the node cannot tell what is stored. Check the Base URL and the dialect of the credential; a proxy or another server may answer this route with something else.',
		});
	};
	const run: OperationRun = {
		resumeUrl: (query) => this.getSignedResumeUrl(query),
		messageId: (itemIndex) => nodeMessageId(this, runIndex, itemIndex),
		instanceWebhook: async (instance, itemIndex) => readWebhook(await askHelper('webhook', itemIndex, { instance })),
		triggerSecret: (scope) => deriveSecret(connection.apiKey, scope),
		postToN8n: async (url, body, headers) => {
			const response = (await this.helpers.httpRequest({
				method: 'POST',
				url,
				body,
				headers,
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: connection.timeoutMs,
			})) as { statusCode?: number; body?: unknown };
			return { status: response.statusCode ?? 0, body: response.body };
		},
	};
	// n8n's Retry On Fail runs the node again without saying so: the node context remembers.
	const sends = operation.carriesMessageId ? SendRecord.open(this, runIndex) : undefined;
	// An operation that waits reads its limit before the first send; it waits once, for all items.
	const waitTill = operation.waitsForAnswer?.(new ItemParameters(parameters, 0, labels));
	let sentCount = 0;
	// An operation's wait: n8n's own sleep, ended by the execution's cancel signal (never a timer of ours).
	const pause = async (ms: number) => await pauseFor(ms, cancelSignalOf(this));
	// A send's Sending options (pace, typing, rate limits, accounts checked, stop): message/sending/.
	const campaign = operation.sendsMessage ? Campaign.open(this, operation.sendsMessage, (itemIndex) => new ItemParameters(parameters, itemIndex, labels)) : undefined;
	// Only Numbers With an Account: checked before the first send. A failed check fails every
	// item before anything is sent (with Continue On Fail, each with its outcome).
	let accountCheckFailure: unknown;
	try {
		await campaign?.checkAccounts(async (instance, numbers) => await askHelper('accountCheck', 0, { route: CHECK_NUMBERS_PATH[dialect.name], instance, body: { numbers } }));
	} catch (error) {
		accountCheckFailure = error;
	}
	// The integration of each instance, asked once per execution (undefined: the server did not say).
	const integrations = new Map<string, string | undefined>();
	const integrationOf = async (instance: string, itemIndex: number): Promise<string | undefined> => {
		if (!integrations.has(instance)) {
			const [asked] = await Promise.allSettled([askHelper('integration', itemIndex, { instance, qs: { instanceName: instance } })]);
			// A key that may not list instances (an HTTP refusal) leaves the answer to the route itself; an odd answer fails the item.
			const refused = asked.status === 'rejected' && typeof (asked.reason as { httpCode?: unknown }).httpCode === 'string';
			if (asked.status === 'rejected' && !refused) throw asked.reason;
			integrations.set(instance, asked.status === 'fulfilled' ? integrationIn(asked.value, instance) : undefined);
		}
		return integrations.get(instance);
	};

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			if (accountCheckFailure !== undefined) throw accountCheckFailure;
			const held = campaign?.held(itemIndex);
			if (held) {
				output.push({ json: held, pairedItem: { item: itemIndex } });
				continue;
			}
			if (operation.v2Only && !dialect.servesV2Routes) {
				throw operationError(
					this.getNode(),
					itemIndex,
					`${operationTitle(operation)} needs an Evolution API v2.x server; the credential's Server Dialect is the ${dialect.label}`,
					'Set the credential\'s Server Dialect to "Server v2.x" if the server runs version 2; servers of the documented interface do not have this route.',
				);
			}
			const minimum = operation.minServerVersion;
			if (minimum !== undefined) {
				const version = await serverVersionOf(this, connection);
				if (isOlder(version, minimum)) {
					throw operationError(
						this.getNode(),
						itemIndex,
						`${operationTitle(operation)} needs ${versionOrNewer(minimum)}; this server is ${version}`,
						'Upgrade the server, or choose another operation. If it was upgraded, set the credential\'s Server Version to "Detect Automatically" or to the new version.',
					);
				}
			}
			const params = new ItemParameters(parameters, itemIndex, labels);
			params.checkChoices();
			const instance = operation.scope === 'server' ? undefined : params.instanceName();
			let itemDialect = dialect;
			if (dialect.servesV2Routes && operation.needsServerVersion?.(params)) {
				const version = await serverVersionOf(this, connection);
				if (version !== undefined) itemDialect = dialectOf(dialect.name, version);
			}
			const itemRoute = operation.itemPath ? operation.itemPath(params) : route;
			const built = await buildRequest(operation, params, itemDialect, run);
			// The item's own secrets (a token it sets) are hidden in the read's errors too.
			learn(built);
			const request = await withStoredObject(operation, params, built, async (_read, route) => await askHelper('read', itemIndex, { route, instance }));
			params.checkQuery(request.query);
			learn(request);
			// The item's own fields are checked (the request built) before the server is asked about the instance.
			if (operation.cloudApiOnly && instance !== undefined) {
				const integration = await integrationOf(instance, itemIndex);
				if (integration !== undefined && integration !== CLOUD_API_INTEGRATION) {
					throw inputError(
						this.getNode(),
						itemIndex,
						'Instance',
						`${operationTitle(operation)} works only with WhatsApp Cloud API instances; "${instance}" is a ${integration === 'WHATSAPP-BAILEYS' ? 'Baileys' : integration} instance (${integration})`,
						`Message templates are Meta's: they exist only for instances of the integration ${CLOUD_API_INTEGRATION} (WhatsApp Cloud API, with a business ID and Meta token). Choose such an instance.`,
					);
				}
			}
			const file = operation.binaryOutput ? new FileOutput(this, params, itemIndex, operation.binaryOutput) : undefined;
			const send = async (built: BuiltRequest) => {
				learn(built);
				const response = await apiRequest(
					this,
					connection,
					{
						method: operation.method ?? 'POST',
						route: built.route ?? itemRoute,
						instance,
						body: built.body,
						qs: built.query,
						extraWaitMs: built.extraWaitMs,
						secrets: [...itemSecrets],
						readAnswer: file?.read,
					},
					itemIndex,
				);
				learn(response);
				const failure = failedDespiteOk(operation, response, redactor);
				if (failure) params.fail('Operation', `failed on the server: ${failure}`);
				file?.checkAnswer();
				return response;
			};
			const waitMs = operation.waitsBeforeRequest?.(params);
			if (waitMs !== undefined) await pause(startedAt + waitMs - Date.now());
			let results: IDataObject[];
			if (operation.readAnswer) {
				results = await operation.readAnswer(params, request, {
					ask: send,
					helper: async (key, call) => await askHelper(key, itemIndex, { route: call.route, instance, body: call.body, qs: call.query }),
					pause,
					startedAt,
				});
			} else if (operation.pagination) {
				results = await readPages(this.getNode(), operation.pagination, params, request, send, connection.timeoutMs);
			} else {
				const messageId = sends ? messageIdOf(request) : undefined;
				if (sends && messageId !== undefined) sends.claim(messageId, itemIndex, params);
				const lookUp = async () =>
					await findSentMessage(async (body) => await askHelper('lookUp', itemIndex, { instance, body }), { messageId: messageId as string, chat: request.body?.number });
				const attempt = async () =>
					campaign ? await campaign.send(async () => await send(campaign.typed(request)), messageId !== undefined ? lookUp : undefined) : await send(request);
				// A send n8n retries may have gone out in the try before: then the stored message answers.
				const response = sends && messageId !== undefined ? await sends.sendOnce(itemIndex, lookUp, attempt) : await attempt();
				results = operation.toItems ? operation.toItems(response, params) : [asItemJson(response)];
				if (messageId !== undefined) results = results.map((result) => ({ ...result, messageId: sentIdOf(result) ?? messageId }));
				if (campaign) results = campaign.sent(results);
			}
			for (const record of results) {
				const json = redactedOutput(operation, redactor, record);
				const item = file ? await file.itemOf(json) : { json };
				output.push({ ...item, pairedItem: { item: itemIndex } });
			}
			sentCount++;
		} catch (caught) {
			// Every error of the item, wherever it was raised, leaves without secrets and cut to a readable length.
			let error = redactor.error(
				caught instanceof ListShapeError
					? listShapeError(this.getNode(), itemIndex, operation.action, caught)
					: caught instanceof NodeOperationError || (caught as { name?: string }).name === 'NodeApiError'
					? (caught as NodeOperationError)
					: new NodeOperationError(this.getNode(), caught as Error, { itemIndex }),
			);
			if (operation.minServerVersion !== undefined) {
				error = explainMissingRoute(error, operationTitle(operation), operation.minServerVersion, this.getNode().type.endsWith('Tool'));
			}
			const refusal = refusalOf(operation, error);
			if (refusal) error = inputError(this.getNode(), itemIndex, labels.get(refusal.field) ?? refusal.field, refusal.problem, refusal.hint);
			const outcome = campaign?.failed(error);
			if (this.continueOnFail()) {
				const httpCode = (error as { httpCode?: string | null }).httpCode;
				output.push({
					json: redactor.deep({
						...outcome,
						error: error.message,
						...(error.description ? { description: error.description } : {}),
						...(httpCode ? { httpCode } : {}),
					}),
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw error;
		}
	}
	// The first answer to any of the messages resumes the execution (n8n's waiting webhook);
	// when every send failed (Continue On Fail) nobody can answer, so the run goes on.
	if (waitTill && sentCount > 0) await this.putExecutionToWait(waitTill);
	return [output];
}

/** The operation's explanation of a server refusal (a 4xx whose text it knows), if it has one. */
function refusalOf(operation: Operation, error: { message: string; httpCode?: string | null }): Refusal | undefined {
	const status = Number(error.httpCode);
	if (!operation.refusals || !(status >= 400 && status < 500)) return undefined;
	return operation.refusals.find((refusal) => refusal.serverText.test(error.message));
}
