import { startSandbox, type Sandbox } from '../../sandbox/server';

/** The phone's side of onboarding: a control route scans a connecting instance's QR code. */
describe('scanning a QR code (v2 sandbox)', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ dialect: 'v2', instances: [{ name: 'demo' }] });
	});
	afterAll(async () => await sandbox.close());

	const api = (method: string, path: string, body?: unknown) =>
		fetch(`${sandbox.url}${path}`, { method, headers: { 'content-type': 'application/json', apikey: sandbox.apiKey }, body: body === undefined ? undefined : JSON.stringify(body) });

	test('create → connect (connecting) → scan → open; a scan of an instance that is not connecting is refused', async () => {
		const created = await api('POST', '/instance/create', { instanceName: 'shop', qrcode: true, integration: 'WHATSAPP-BAILEYS' });
		expect(created.status).toBe(201);
		expect(((await (await api('GET', '/instance/connectionState/shop')).json()) as { instance: { state: string } }).instance.state).toBe('connecting');

		const early = await fetch(`${sandbox.url}/_sandbox/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ instance: 'demo' }) });
		expect(early.status).toBe(409);

		const scanned = await fetch(`${sandbox.url}/_sandbox/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ instance: 'shop' }) });
		expect(await scanned.json()).toEqual({ instance: 'shop', state: 'open' });
		expect(((await (await api('GET', '/instance/connectionState/shop')).json()) as { instance: { state: string } }).instance.state).toBe('open');
	});

	test('an unknown instance is a 404', async () => {
		const res = await fetch(`${sandbox.url}/_sandbox/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ instance: 'ghost' }) });
		expect(res.status).toBe(404);
	});
});
