/**
 * `cli.ts --server-version … --unlicensed` starts a sandbox playing that release.
 */
import { spawn, execFile } from 'child_process';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = join(ROOT, 'sandbox', 'cli.ts');

it('plays an unactivated 2.4: GET / says 2.4.0, an interface route answers 503 LICENSE_REQUIRED', async () => {
	const child = spawn(TSX, [CLI, '--port', '0', '--dialect', 'v2', '--server-version', '2.4.0', '--unlicensed', '--quiet']);
	try {
		const url = await new Promise<string>((resolve, reject) => {
			let out = '';
			child.stdout.on('data', (c: Buffer) => {
				out += c.toString();
				const m = /\(v2 dialect, Evolution API 2\.4\.0, not activated\) listening on (http:\/\/\S+)/.exec(out);
				if (m) resolve(m[1]);
			});
			child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
		});
		const root = await fetch(`${url}/`);
		expect(root.status).toBe(200);
		expect(((await root.json()) as { version: string }).version).toBe('2.4.0');
		const send = await fetch(`${url}/message/sendText/demo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
		expect(send.status).toBe(503);
		expect(((await send.json()) as { code: string }).code).toBe('LICENSE_REQUIRED');
	} finally {
		child.kill('SIGTERM');
	}
}, 30000);

it('refuses an unknown version', async () => {
	const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
		execFile(TSX, [CLI, '--server-version', '2.5.0'], { timeout: 20000 }, (err, _stdout, stderr) => {
			resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr });
		});
	});
	expect(result.code).not.toBe(0);
	expect(result.stderr).toContain('--server-version must be one of 2.3.6, 2.3.7, 2.4.0');
}, 30000);
