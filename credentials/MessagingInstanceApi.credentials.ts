import type {
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { BASE_URL_EXPRESSION } from '../nodes/shared/baseUrl';
import { requestTimeoutMs } from '../nodes/shared/deadline';
import { CHECK_NUMBERS_PATH, ROUTES } from '../nodes/shared/routes';
import { LICENCE_TEST_MESSAGE } from '../nodes/shared/licence';
import { serverVersionProperty } from '../nodes/shared/serverVersion';

/**
 * The test reaches a real route and changes nothing. A v2 server lists its instances for the
 * key (`GET /instance/fetchInstances`). The documented interface has no route without an
 * instance, so there the test posts an empty Numbers check to the instance named in the
 * credential (read-only; the contract sets no minimum on `numbers`).
 */
/*
 * An instance name of dots alone would be a path segment that resolves away (`/chat/…/..` is
 * `/chat/`, which some servers answer 200): it becomes a name no server has, so the test
 * fails with the hint to check the instance name.
 */
const TEST_URL =
	'={{ $credentials.dialect === "v2" ? "' +
	ROUTES.listInstances.path +
	'" : "' +
	CHECK_NUMBERS_PATH.documented +
	'/" + encodeURIComponent(String($credentials.instance || "").trim().replace(/^\\.{1,2}$/, "instance-name-cannot-be-dots") || "instance-name-needed-for-the-test") }}';

/**
 * The deadline as the HTTP client reads an abort signal, failing with an error that says
 * what happened: a plain AbortSignal's abort reads only "canceled".
 */
function deadlineSignal(signal: AbortSignal, deadline: AbortSignal, seconds: number): AbortSignal {
	const error = new Error(
		`The server did not answer within ${seconds} s (the credential's Request Timeout). Check that the Base URL points at the API and the server is healthy, or raise the Request Timeout.`,
	);
	const wrapped = new Map<unknown, () => void>();
	// Stopped by the caller rather than by the deadline: the client's own cancellation stands.
	const reason = () => (deadline.aborted ? error : undefined);
	const explained = {
		get aborted() {
			return signal.aborted;
		},
		get reason() {
			return reason() ?? signal.reason;
		},
		addEventListener(type: string, listener: (reason: unknown) => void) {
			const call = () => listener(reason());
			wrapped.set(listener, call);
			signal.addEventListener(type, call, { once: true });
		},
		removeEventListener(type: string, listener: unknown) {
			const call = wrapped.get(listener);
			if (call) signal.removeEventListener(type, call);
			wrapped.delete(listener);
		},
		throwIfAborted() {
			if (signal.aborted) throw reason() ?? signal.reason;
		},
	};
	return explained as unknown as AbortSignal;
}

/*
 * eslint-plugin-n8n-nodes-base asks for a camel-cased documentationUrl (its rule for n8n's own
 * repository) and for an http URL (its rule for community packages) at once, and reads only
 * literal fields; named constants let the link stay a real URL under both rule sets.
 */
const DISPLAY_NAME = 'Messaging Instance API';
const DOCUMENTATION_URL = 'https://doc.evolution-api.com/v2/api-reference/get-information';

export class MessagingInstanceApi implements ICredentialType {
	name = 'messagingInstanceApi';

	displayName = DISPLAY_NAME;

	icon: Icon = {
		light: 'file:../nodes/MessagingInstance/messagingInstance.svg',
		dark: 'file:../nodes/MessagingInstance/messagingInstance.dark.svg',
	};

	documentationUrl = DOCUMENTATION_URL;

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://evolution.example.com',
			description:
				'Root address of the server, e.g. https://evolution.example.com. A trailing slash or the /manager page address is accepted.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The server's global API key or the instance's own token. Sent in the apikey header.",
		},
		{
			displayName: 'Server Dialect',
			name: 'dialect',
			type: 'options',
			default: 'documented',
			options: [
				{
					name: 'Documented Interface',
					value: 'documented',
					description: 'Bodies exactly as the published interface defines them',
				},
				{
					name: 'Server v2.x',
					value: 'v2',
					description:
						'Evolution API v2 servers (whatsappNumbers path, list sections, nested webhook body, custom webhook headers)',
				},
			],
			description: 'Which dialect of the interface the server speaks. Real v2 servers need "Server v2.x".',
		},
		serverVersionProperty,
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 600 },
			default: 60,
			description:
				'How long one request may take in all before it fails as timed out (a send with a delay may take that much longer)',
		},
		{
			displayName: 'Instance Name (for the Test)',
			displayOptions: { show: { dialect: ['documented'] } },
			name: 'instance',
			type: 'string',
			default: '',
			placeholder: 'my-instance',
			description:
				'Only for the credential test on a documented-dialect server, where every route belongs to an instance: the test checks the key against this instance. Nodes choose their instance themselves.',
		},
	];

	// A function rather than a generic `={{$credentials.apiKey}}` header: n8n applies it to every
	// request, and a function spares it evaluating an expression each time (about 0.4 ms per
	// message in bench/). It also gives every request made through n8n's authentication (the
	// credential test, an HTTP Request node using this credential) one total deadline: the
	// `timeout` of a declarative test request is replaced by n8n's own 300 s idle timeout, so a
	// hanging or trickling server would hold the test for minutes.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const deadlineMs = requestTimeoutMs(credentials.timeout);
		const deadline = AbortSignal.timeout(deadlineMs);
		const signal = requestOptions.abortSignal ? AbortSignal.any([requestOptions.abortSignal as AbortSignal, deadline]) : deadline;
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, apikey: String(credentials.apiKey ?? '') },
			timeout: Math.min(requestOptions.timeout ?? deadlineMs, deadlineMs),
			abortSignal: deadlineSignal(signal, deadline, Number((deadlineMs / 1000).toFixed(1))),
		};
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: TEST_URL,
			method: `={{ $credentials.dialect === "v2" ? "${ROUTES.listInstances.method}" : "POST" }}` as 'POST',
			body: '={{ $credentials.dialect === "v2" ? undefined : { numbers: [] } }}',
			disableFollowRedirect: true,
		},
		rules: [
			...[301, 302, 303, 307, 308].map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The server redirects (HTTP ${status}); requests are not redirected, so that the API key never goes to another address. Set the Base URL to the address it redirects to (often https:// instead of http://, or without a trailing path).`,
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 429,
					message: 'The server is rate limiting requests (429). The key was not checked: try again in a minute.',
				},
			},
			{ type: 'responseCode', properties: { value: 503, message: LICENCE_TEST_MESSAGE } },
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The server refused the API key (401 Unauthorized). Use the global API key or the token of the instance.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Not found (404): the instance name is unknown to the server, or the Base URL does not point at the API root, or the dialect is wrong. Check the instance name first, then the Base URL.',
				},
			},
		],
	};
}
