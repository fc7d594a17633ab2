/**
 * A keeper: a tiny separate process that ends the processes this one started when this one
 * ends, however it ends. An exit hook runs on process.exit and on a handled signal, but a
 * SIGKILL (tsx kills its child that way when the child is slow to confirm a Ctrl-C) skips
 * every hook, and n8n runs in its own process group (so that its task runner can be ended
 * with it), where the terminal's Ctrl-C does not reach it.
 *
 * The keeper holds the read end of a pipe whose write end only this process holds (Node
 * opens pipes close-on-exec, so no other child inherits it). The kernel closes the write end
 * when this process dies, for any reason; the keeper then reads end-of-file, sends each
 * registered target its signal, SIGKILLs what is still there after a grace period, and exits.
 * It runs in its own session, so a Ctrl-C or a closed terminal does not end it first.
 *
 * Why not children that watch their parent themselves: n8n is a program we do not change,
 * and Linux's parent-death signal is not reachable from Node's spawn.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Lines on stdin: `+<pid> <SIGNAL>` watch (a negative pid is a process group), `-<pid>` forget, `!<text>` say when done. */
const KEEPER_SOURCE = `
const targets = new Map();
let said = '';
let buffered = '';
for (const s of ['SIGINT', 'SIGHUP', 'SIGTERM', 'SIGQUIT']) process.on(s, () => {});
const fs = require('fs');
// A process that has exited but is not yet reaped (a zombie) answers kill(pid, 0): on Linux,
// read the state from /proc instead (field 3 is the state, field 5 the process group).
const statOf = (pid) => { try { const t = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); return t.slice(t.lastIndexOf(')') + 2).split(' '); } catch { return undefined; } };
const alive = (pid) => {
	if (fs.existsSync('/proc/self/stat')) {
		if (pid > 0) { const f = statOf(pid); return !!f && f[0] !== 'Z'; }
		return fs.readdirSync('/proc').some((d) => { if (!/^\\d+$/.test(d)) return false; const f = statOf(d); return !!f && f[0] !== 'Z' && Number(f[2]) === -pid; });
	}
	try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
};
const signal = (pid, sig) => { try { process.kill(pid, sig); } catch {} };
process.stdin.on('data', (chunk) => {
	buffered += chunk;
	const lines = buffered.split('\\n');
	buffered = lines.pop();
	for (const line of lines) {
		if (line[0] === '+') { const [pid, sig] = line.slice(1).split(' '); targets.set(Number(pid), sig || 'SIGKILL'); }
		else if (line[0] === '-') targets.delete(Number(line.slice(1)));
		else if (line[0] === '!') said = line.slice(1);
	}
});
const end = () => {
	if (targets.size === 0) process.exit(0);
	for (const [pid, sig] of targets) signal(pid, sig);
	const deadline = Date.now() + Number(process.argv[1] || 3000);
	const timer = setInterval(() => {
		const left = [...targets.keys()].filter(alive);
		if (left.length > 0 && Date.now() < deadline) return;
		for (const pid of left) signal(pid, 'SIGKILL');
		clearInterval(timer);
		if (said) { try { fs.writeSync(2, said + '\\n'); } catch {} }
		process.exit(0);
	}, 50);
};
process.stdin.on('end', end);
process.stdin.on('error', end);
`;

let keeper: ChildProcess | undefined;

function theKeeper(): ChildProcess | undefined {
	if (keeper && keeper.exitCode === null && keeper.stdin?.writable) return keeper;
	try {
		keeper = spawn(process.execPath, ['-e', KEEPER_SOURCE, '3000'], {
			detached: true,
			// stderr: the same terminal, for the line said when it had to act
			stdio: ['pipe', 'ignore', 'inherit'],
			env: { PATH: process.env.PATH ?? '' },
		});
	} catch {
		return undefined;
	}
	keeper.on('error', () => undefined);
	keeper.stdin!.on('error', () => undefined);
	// Neither the keeper nor its pipe keeps this process running.
	keeper.unref();
	(keeper.stdin as unknown as { unref?: () => void }).unref?.();
	return keeper;
}

function tell(line: string): void {
	theKeeper()?.stdin!.write(`${line}\n`);
}

/** The keeper ends `pid` (negative: a process group) with `signal` once this process has ended. */
export function keeperWatch(pid: number, signal: NodeJS.Signals): void {
	tell(`+${pid} ${signal}`);
}

/** `pid` was stopped cleanly: the keeper leaves it (a reused pid is not ended). */
export function keeperForget(pid: number): void {
	if (keeper) tell(`-${pid}`);
}

/** A line the keeper prints to this process's stderr after it had to end what this process left. */
export function keeperSaysWhenDone(text: string): void {
	tell(`!${text.replace(/\n/g, ' ')}`);
}

/** The keeper's pid (for tests), once one runs. */
export function keeperPid(): number | undefined {
	return keeper?.pid;
}
