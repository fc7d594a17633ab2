/**
 * Postgres and Redis for the queue-mode tier (e2e/queue.ts), from Debian's packages
 * (`postgresql`, `redis-server`; `.ci/services.sh` installs them), each started on a free
 * loopback port with its data and log in a temporary folder, and stopped by PID.
 *
 * - Postgres refuses to run as root: as root, `initdb` and `pg_ctl` run as the unprivileged
 *   `postgres` user (`runuser -u postgres --`), in a folder handed to that user. Password
 *   authentication (scram-sha-256) on 127.0.0.1 only, a database `n8n` owned by user `n8n`.
 *   fsync is off: the data is thrown away afterwards.
 * - Redis: `redis-server --port N --bind 127.0.0.1 --save '' --appendonly no`, in the
 *   foreground as our child (its own process group).
 * - stop() ends both (Postgres: SIGINT to the postmaster's PID = fast shutdown; Redis:
 *   SIGTERM), SIGKILL after a grace period, and removes the folder. An exit hook kills them
 *   if the process ends without stop().
 *
 * Only Node built-ins, so tsx runs it on the Node 20 of a fresh checkout.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { REPO_ROOT, endWhenThisExits, freePort, run } from './n8n-runtime';

export interface PostgresInfo {
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
	pid: number;
	logFile: string;
}

export interface RedisInfo {
	host: string;
	port: number;
	pid: number;
	logs(): string;
}

export interface Services {
	dir: string;
	postgres: PostgresInfo;
	redis: RedisInfo;
	/** ms from the call to both ready */
	startupMs: number;
	/** the Postgres log so far */
	postgresLog(): string;
	stop(): Promise<void>;
}

export interface ServiceBinaries {
	/** /usr/lib/postgresql/<version>/bin */
	pgBin?: string;
	redisServer?: string;
	/** what is missing, in words */
	missing: string[];
}

function which(cmd: string): string | undefined {
	const res = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
	const out = res.stdout.trim();
	return res.status === 0 && out ? out : undefined;
}

/** Where Debian's packages put the binaries (newest Postgres version first). */
export function findServiceBinaries(): ServiceBinaries {
	const missing: string[] = [];
	let pgBin: string | undefined;
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root)
		? fs
				.readdirSync(root)
				.filter((v) => /^\d+(\.\d+)?$/.test(v))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	for (const v of versions) {
		const bin = path.join(root, v, 'bin');
		if (['initdb', 'pg_ctl', 'postgres', 'createdb'].every((b) => fs.existsSync(path.join(bin, b)))) {
			pgBin = bin;
			break;
		}
	}
	if (!pgBin) missing.push('PostgreSQL (Debian package postgresql: /usr/lib/postgresql/<version>/bin/initdb)');
	const redisServer = which('redis-server');
	if (!redisServer) missing.push('Redis (Debian package redis-server)');
	if (isRoot() && !userExists('postgres')) missing.push('the postgres user (made by the postgresql package)');
	return { pgBin, redisServer, missing };
}

function isRoot(): boolean {
	return typeof process.getuid === 'function' && process.getuid() === 0;
}

function userExists(name: string): boolean {
	return spawnSync('id', ['-u', name], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs the packages with `.ci/services.sh` (apt-get; needs root or sudo) when they are
 * missing. Returns the binaries; `missing` is non-empty when the install did not work.
 */
export async function ensureServiceBinaries(opts: { install?: boolean } = {}): Promise<ServiceBinaries & { installLog?: string }> {
	const found = findServiceBinaries();
	if (found.missing.length === 0 || opts.install === false) return found;
	let installLog = '';
	try {
		const res = await run('bash', [path.join(REPO_ROOT, '.ci', 'services.sh')], { label: 'services.sh', quiet: true });
		installLog = res.stdout + res.stderr;
	} catch (e) {
		installLog = e instanceof Error ? e.message : String(e);
	}
	return { ...findServiceBinaries(), installLog };
}

function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return (e as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Signals a PID, waits up to graceMs for it to go, then SIGKILL. */
async function stopPid(pid: number, signal: NodeJS.Signals, graceMs: number): Promise<void> {
	if (!alive(pid)) return;
	try {
		process.kill(pid, signal);
	} catch {
		return;
	}
	const deadline = Date.now() + graceMs;
	while (alive(pid) && Date.now() < deadline) await sleep(100);
	if (alive(pid)) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			/* gone */
		}
		while (alive(pid)) await sleep(50);
	}
}

/** Runs a Postgres binary as the postgres user when we are root (Postgres refuses root). */
function asPostgres(bin: string, args: string[]): { cmd: string; args: string[] } {
	if (!isRoot()) return { cmd: bin, args };
	const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => fs.existsSync(p)) ?? which('runuser');
	if (runuser) return { cmd: runuser, args: ['-u', 'postgres', '--', bin, ...args] };
	const quoted = [bin, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
	return { cmd: 'su', args: ['postgres', '-s', '/bin/sh', '-c', quoted] };
}

/**
 * A parent for the temporary folder: the system's temporary folder, unless the postgres user
 * could not reach a folder in it (a TMPDIR under /root), then /tmp.
 */
function tempParent(): string {
	const dir = os.tmpdir();
	if (!isRoot()) return dir;
	for (let d = path.resolve(dir); ; d = path.dirname(d)) {
		if ((fs.statSync(d).mode & 0o001) === 0) return '/tmp';
		if (d === path.dirname(d)) return dir;
	}
}

async function startPostgres(pgBin: string, dir: string): Promise<PostgresInfo & { stop(): Promise<void> }> {
	const dataDir = path.join(dir, 'data');
	const logFile = path.join(dir, 'postgres.log');
	const pwFile = path.join(dir, 'pw');
	const password = randomBytes(12).toString('hex');
	fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
	if (isRoot()) {
		const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
		const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
		fs.chownSync(dir, uid, gid);
		fs.chownSync(pwFile, uid, gid);
	}
	const init = asPostgres(path.join(pgBin, 'initdb'), [
		'-D',
		dataDir,
		'-U',
		'n8n',
		`--pwfile=${pwFile}`,
		'--auth=scram-sha-256',
		'--encoding=UTF8',
		'--no-locale',
		'--no-sync',
	]);
	await run(init.cmd, init.args, { cwd: dir, label: 'initdb', quiet: true });
	fs.rmSync(pwFile, { force: true });
	const port = await freePort();
	const options = [
		`-p ${port}`,
		'-c listen_addresses=127.0.0.1',
		`-c unix_socket_directories=${dir}`,
		'-c fsync=off',
		'-c synchronous_commit=off',
		'-c full_page_writes=off',
		'-c max_connections=200',
	].join(' ');
	const ctl = asPostgres(path.join(pgBin, 'pg_ctl'), ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', options]);
	await run(ctl.cmd, ctl.args, { cwd: dir, label: 'pg_ctl', quiet: true }).catch((e: Error) => {
		const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
		throw new Error(`${e.message}\n${log}`);
	});
	const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
	const forget = endWhenThisExits(pid, 'SIGQUIT');
	const env = { ...process.env, PGPASSWORD: password };
	await run(path.join(pgBin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n'], { env, label: 'createdb', quiet: true });
	return {
		host: '127.0.0.1',
		port,
		user: 'n8n',
		password,
		database: 'n8n',
		pid,
		logFile,
		// SIGINT = "fast" shutdown: ends the sessions, writes a checkpoint, exits.
		stop: async () => {
			await stopPid(pid, 'SIGINT', 20000);
			forget();
		},
	};
}

export async function startRedis(redisServer: string, dir: string): Promise<RedisInfo & { stop(): Promise<void> }> {
	const port = await freePort();
	const child: ChildProcess = spawn(
		redisServer,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir, '--logfile', ''],
		{ cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
	child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
	const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
	const forget = endWhenThisExits(child.pid!, 'SIGKILL');
	const deadline = Date.now() + 20000;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}):\n${output.slice(-2000)}`);
		try {
			if ((await redisCommand(port, ['PING'])) === 'PONG') break;
		} catch {
			/* not yet */
		}
		if (Date.now() > deadline) throw new Error(`redis-server did not answer PING within 20 s:\n${output.slice(-2000)}`);
		await sleep(100);
	}
	return {
		host: '127.0.0.1',
		port,
		pid: child.pid!,
		logs: () => output,
		stop: async () => {
			await stopPid(child.pid!, 'SIGTERM', 10000);
			await exited;
			forget();
		},
	};
}

/**
 * Starts Postgres and Redis on free loopback ports in a new temporary folder. Throws when a
 * binary is missing (see ensureServiceBinaries) or a server does not come up; whatever was
 * started is stopped again in that case.
 */
export async function startServices(bins: ServiceBinaries = findServiceBinaries()): Promise<Services> {
	if (!bins.pgBin || !bins.redisServer) throw new Error(`missing: ${bins.missing.join('; ')}`);
	const started = Date.now();
	const dir = fs.mkdtempSync(path.join(tempParent(), 'queue-services-'));
	let pg: Awaited<ReturnType<typeof startPostgres>> | undefined;
	let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
	const stop = async () => {
		await Promise.allSettled([pg?.stop(), redis?.stop()]);
		fs.rmSync(dir, { recursive: true, force: true });
	};
	try {
		[pg, redis] = await Promise.all([startPostgres(bins.pgBin, dir), startRedis(bins.redisServer, dir)]);
	} catch (e) {
		await stop();
		throw e;
	}
	const { stop: _pgStop, ...postgres } = pg;
	const { stop: _redisStop, ...redisInfo } = redis;
	return {
		dir,
		postgres,
		redis: redisInfo,
		startupMs: Date.now() - started,
		postgresLog: () => {
			try {
				return fs.readFileSync(postgres.logFile, 'utf8');
			} catch {
				return '';
			}
		},
		stop,
	};
}

// ---------------------------------------------------------------------------------------
// a minimal Redis client (RESP over one socket) for the tier's own look-ups

type RespValue = string | number | null | RespValue[];

/** Parses one RESP value at `at`; returns it and the next index, or undefined when incomplete. */
function parseResp(buf: string, at: number): { value: RespValue; next: number } | undefined {
	const eol = buf.indexOf('\r\n', at);
	if (eol < 0) return undefined;
	const kind = buf[at];
	const line = buf.slice(at + 1, eol);
	if (kind === '+') return { value: line, next: eol + 2 };
	if (kind === '-') throw new Error(`redis: ${line}`);
	if (kind === ':') return { value: Number(line), next: eol + 2 };
	if (kind === '$') {
		const len = Number(line);
		if (len < 0) return { value: null, next: eol + 2 };
		// lengths are in bytes; the tier only reads ASCII keys and numbers
		if (buf.length < eol + 2 + len + 2) return undefined;
		return { value: buf.slice(eol + 2, eol + 2 + len), next: eol + 2 + len + 2 };
	}
	if (kind === '*') {
		const n = Number(line);
		if (n < 0) return { value: null, next: eol + 2 };
		const items: RespValue[] = [];
		let next = eol + 2;
		for (let i = 0; i < n; i++) {
			const part = parseResp(buf, next);
			if (!part) return undefined;
			items.push(part.value);
			next = part.next;
		}
		return { value: items, next };
	}
	throw new Error(`redis: unexpected reply ${JSON.stringify(buf.slice(at, at + 40))}`);
}

/**
 * Sends commands on one connection (e.g. SELECT 1 then GET key) and resolves with the last
 * reply. For tests only: ASCII values, small replies.
 */
export function redisCommands(port: number, commands: string[][], host = '127.0.0.1'): Promise<RespValue> {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, host);
		let buf = '';
		const replies: RespValue[] = [];
		let at = 0;
		socket.setTimeout(5000, () => socket.destroy(new Error('redis: timeout')));
		socket.on('error', reject);
		socket.on('connect', () => {
			for (const args of commands) {
				socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
			}
		});
		socket.on('data', (chunk: Buffer) => {
			buf += chunk.toString('utf8');
			try {
				for (;;) {
					const part = parseResp(buf, at);
					if (!part) break;
					replies.push(part.value);
					at = part.next;
				}
			} catch (e) {
				socket.destroy();
				reject(e);
				return;
			}
			if (replies.length === commands.length) {
				socket.end();
				resolve(replies[replies.length - 1]);
			}
		});
	});
}

export function redisCommand(port: number, args: string[], host = '127.0.0.1'): Promise<RespValue> {
	return redisCommands(port, [args], host);
}
