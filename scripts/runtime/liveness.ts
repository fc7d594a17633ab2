/**
 * Is it still there: a process (not counting a zombie, an exited process nobody reaped yet,
 * which kill(pid, 0) still finds), the members of a process group, a listening port. Linux
 * (/proc); for the checks that stopping leaves nothing behind.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';

/** The fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, …], or undefined. */
function statFields(pid: number | string): string[] | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined;
	}
}

/** The process runs (exists and is not a zombie). */
export function processRuns(pid: number): boolean {
	const fields = statFields(pid);
	return !!fields && fields[0] !== 'Z';
}

/** The processes of a process group that still run. */
export function processGroupMembers(pgid: number): number[] {
	return fs
		.readdirSync('/proc')
		.filter((d) => /^\d+$/.test(d))
		.filter((d) => {
			const fields = statFields(d);
			return !!fields && fields[0] !== 'Z' && Number(fields[2]) === pgid;
		})
		.map(Number);
}

/** Something accepts connections on 127.0.0.1:port. */
export function portListening(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}
