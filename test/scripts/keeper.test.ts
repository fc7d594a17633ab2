/**
 * Stopping is certain: a process that started a detached child (its own process group, as
 * n8n is started, with a grandchild in the group as n8n's task runner) through
 * endWhenThisExits, and serves a port itself (as `npm start` serves the sandbox), is
 * SIGKILLed — no handler or exit hook runs — and the keeper ends the child's whole group.
 * The real `npm start` with n8n is checked the same way in the e2e tier.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { portListening as listening, processRuns as running } from '../../scripts/runtime/liveness';

const ROOT = path.join(__dirname, '..', '..');

// The stand-in for n8n: listens on a port, starts a grandchild in its group, prints both.
const CHILD = `
const { spawn } = require('child_process');
const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
require('http').createServer(() => {}).listen(0, '127.0.0.1', function () {
	process.stdout.write(JSON.stringify({ port: this.address().port, grandchild: grandchild.pid }) + '\\n');
});
`;

// The stand-in for npm start: starts the child as startN8n does, serves a port, prints all pids.
const PARENT = `
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import { endWhenThisExits } from ${JSON.stringify(path.join(ROOT, 'scripts', 'n8n-runtime'))};
import { keeperPid } from ${JSON.stringify(path.join(ROOT, 'scripts', 'runtime', 'keeper'))};
const child = spawn(process.execPath, ['-e', ${JSON.stringify(CHILD)}], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
endWhenThisExits(-child.pid!, 'SIGKILL');
child.stdout!.once('data', (line: Buffer) => {
	const inner = JSON.parse(line.toString());
	const server = http.createServer(() => undefined).listen(0, '127.0.0.1', () => {
		const own = (server.address() as { port: number }).port;
		process.stdout.write(JSON.stringify({ child: child.pid, ...inner, ownPort: own, keeper: keeperPid() }) + '\\n');
	});
});
`;

describe('the keeper ends what a SIGKILLed process started', () => {
	let dir = '';
	let parent: ChildProcess | undefined;
	const leftovers: number[] = [];
	beforeAll(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keeper-test-'));
		fs.writeFileSync(path.join(dir, 'parent.ts'), PARENT);
	});
	afterAll(() => {
		parent?.kill('SIGKILL');
		for (const pid of leftovers) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				/* gone, as it should be */
			}
		}
		fs.rmSync(dir, { recursive: true, force: true });
	});

	it('SIGKILL of the parent: the child, its grandchild and their port are gone within 3 s; the parent\'s own port too', async () => {
		parent = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'parent.ts')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
		const info = await new Promise<{ child: number; grandchild: number; port: number; ownPort: number; keeper: number }>((resolve, reject) => {
			let out = '';
			parent!.stdout!.on('data', (c: Buffer) => {
				out += c.toString();
				if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
			});
			parent!.once('exit', (code) => reject(new Error(`the parent exited early (${code})`)));
		});
		leftovers.push(-info.child, info.grandchild, ...(info.keeper ? [info.keeper] : []));
		expect(info.keeper).toEqual(expect.any(Number));
		expect(running(info.child)).toBe(true);
		expect(running(info.grandchild)).toBe(true);
		expect(running(info.keeper)).toBe(true);
		expect(await listening(info.port)).toBe(true);
		expect(await listening(info.ownPort)).toBe(true);

		const killedAt = Date.now();
		parent.kill('SIGKILL');
		let gone = false;
		while (Date.now() - killedAt < 3000) {
			gone = !running(info.child) && !running(info.grandchild) && !(await listening(info.port)) && !(await listening(info.ownPort));
			if (gone) break;
			await new Promise((r) => setTimeout(r, 50));
		}
		expect({ child: running(info.child), grandchild: running(info.grandchild), port: await listening(info.port), ownPort: await listening(info.ownPort) }).toEqual({
			child: false,
			grandchild: false,
			port: false,
			ownPort: false,
		});
		expect(gone).toBe(true);
		// and the keeper itself ends once its work is done
		const keeperDeadline = Date.now() + 3000;
		while (running(info.keeper) && Date.now() < keeperDeadline) await new Promise((r) => setTimeout(r, 50));
		expect(running(info.keeper)).toBe(false);
	});

	it('a clean stop tells the keeper to forget the pid: the parent exits on its own, the keeper ends and kills nothing', async () => {
		const script = path.join(dir, 'clean.ts');
		fs.writeFileSync(
			script,
			`import { spawn } from 'node:child_process';
import { endWhenThisExits } from ${JSON.stringify(path.join(ROOT, 'scripts', 'n8n-runtime'))};
import { keeperPid } from ${JSON.stringify(path.join(ROOT, 'scripts', 'runtime', 'keeper'))};
// a process outside any group the keeper watches, registered and then forgotten
const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
bystander.unref();
const forget = endWhenThisExits(bystander.pid!, 'SIGKILL');
forget();
process.stdout.write(JSON.stringify({ bystander: bystander.pid, keeper: keeperPid() }) + '\\n');
`,
		);
		const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
		const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
		expect(code).toBe(0);
		const info = JSON.parse(out.split('\n')[0]) as { bystander: number; keeper: number };
		leftovers.push(info.bystander, ...(info.keeper ? [info.keeper] : []));
		expect(info.keeper).toEqual(expect.any(Number));
		const deadline = Date.now() + 3000;
		while (running(info.keeper) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
		expect(running(info.keeper)).toBe(false);
		expect(running(info.bystander)).toBe(true);
	});
});
