/**
 * The licence gate of Evolution API 2.4: until the server is activated, every request but a
 * few paths answers 503 LICENSE_REQUIRED, before routing and before the key check.
 */
import type { Reply } from './types';

const DOCS_URL = 'https://docs.evolutionfoundation.com.br/licensing';

/** Paths the gate lets through unactivated: health, licence routes, manager UI, static files. */
export function passesGate(path: string): boolean {
	return (
		path === '/' ||
		path === '/health' ||
		path === '/server/ok' ||
		path === '/favicon.ico' ||
		path === '/license/status' ||
		path === '/license/register' ||
		path === '/license/activate' ||
		path.startsWith('/manager') ||
		path.startsWith('/assets') ||
		path.startsWith('/store') ||
		path === '/ws' ||
		/\.(svg|css|js|png|ico|woff2?|ttf|map)$/i.test(path)
	);
}

/**
 * The 503 an unactivated 2.4 server answers: the register URL is built from the request
 * (`X-Forwarded-Proto` or the connection's protocol, and the `Host` header).
 */
export function licenceRequired(instanceId: string, host: string | undefined, forwardedProto: string | undefined): Reply {
	const managerUrl = `${forwardedProto || 'http'}://${host}/manager/login`;
	return {
		status: 503,
		body: {
			error: 'service not activated',
			code: 'LICENSE_REQUIRED',
			register_url: managerUrl,
			instance_id: instanceId,
			docs_url: DOCS_URL,
			message: `This Evolution API instance is not activated. Open ${managerUrl} to activate, or set AUTHENTICATION_API_KEY in your .env with a valid licensing key. Docs: ${DOCS_URL}`,
		},
	};
}
