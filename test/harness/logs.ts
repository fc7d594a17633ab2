import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';

/**
 * n8n's log, as the harness keeps it: every line logged while a test runs — through
 * n8n-workflow's LoggerProxy (n8n-core's execution engine) or the Logger a node reads as
 * `this.logger` — is captured here instead of printed, so that the suite-wide secret check
 * (secrets.ts) reads the log as it reads outputs and errors. The capture is reset before each
 * test (teardown.ts), so a line is judged in the test that logged it.
 */

export interface LogLine {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: unknown;
}

const lines: LogLine[] = [];

const capturing = {
	error: (message: string, metadata?: unknown) => void lines.push({ level: 'error', message, metadata }),
	warn: (message: string, metadata?: unknown) => void lines.push({ level: 'warn', message, metadata }),
	info: (message: string, metadata?: unknown) => void lines.push({ level: 'info', message, metadata }),
	debug: (message: string, metadata?: unknown) => void lines.push({ level: 'debug', message, metadata }),
	scoped: () => capturing,
};

LoggerProxy.init(capturing);
Container.set(Logger, capturing as unknown as Logger);

/** The lines logged since the capture was last cleared, oldest first. */
export function loggedLines(): readonly LogLine[] {
	return lines;
}

export function clearLog(): void {
	lines.length = 0;
}

/** An error in a line's metadata, with every field of its own (JSON would show `{}`). */
function expandError(value: unknown): unknown {
	if (!(value instanceof Error)) return value;
	const record = value as unknown as Record<string, unknown>;
	return Object.fromEntries(Object.getOwnPropertyNames(value).map((name) => [name, record[name]]));
}

type Replacer = (key: string, value: unknown) => unknown;

/** One line as text: its level, message and metadata (each value through `replacer`, as JSON.stringify calls it). */
export function lineText(line: LogLine, replacer: Replacer = (_key, value) => value): string {
	let metadata: string;
	try {
		metadata = JSON.stringify(line.metadata, (key, value: unknown) => replacer(key, expandError(value))) ?? '';
	} catch {
		metadata = String(line.metadata);
	}
	return `${line.level} ${line.message} ${metadata}`;
}
