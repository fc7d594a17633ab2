/**
 * An operation lives in four places besides its own file: the sandbox (its oracle, which
 * never imports from nodes/), the operation reference's tables (docs/operations.md, with the
 * README's summary table of them), and the end-to-end tier that runs it in a real n8n. This
 * test holds the registry against the three others and says, per operation, exactly what is
 * missing where.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodePropertyOptions } from 'n8n-workflow';

import { OPERATIONS, nodeProperties } from '../../nodes/MessagingInstance/actions';
import type { Operation } from '../../nodes/MessagingInstance/actions/types';
import { dialectOf, type DialectName } from '../../nodes/shared/dialect';
import { ROUTES as SANDBOX_ROUTES } from '../../sandbox/routes';
import type { Dialect as SandboxDialect } from '../../sandbox/types';

const ROOT = join(__dirname, '../..');

const RESOURCE_NAMES = new Map(
	((nodeProperties.find((property) => property.name === 'resource')?.options ?? []) as INodePropertyOptions[]).map((option) => [option.name, String(option.value)]),
);

const nameOf = (operation: Operation) => `${operation.name} (${operation.resource}:${operation.value})`;

/**
 * The request lines an operation sends with a dialect, as the sandbox writes its paths: one,
 * or one per path of an operation whose path depends on the item (a bot platform, `{id}`).
 */
function requestsOf(operation: Operation, dialect: DialectName): Array<{ method: string; path: string }> {
	const routes = operation.itemPaths ?? [typeof operation.path === 'function' ? operation.path(dialectOf(dialect)) : operation.path];
	return routes.map((route) => ({ method: operation.method ?? 'POST', path: operation.scope === 'server' ? route : `${route}/{instance}` }));
}

function missingSandboxRoutes(operations: readonly Operation[]): string[] {
	const missing: string[] = [];
	for (const operation of operations) {
		for (const dialect of operation.v2Only ? (['v2'] as const) : (['documented', 'v2'] as const)) {
			for (const { method, path } of requestsOf(operation, dialect)) {
				if (!SANDBOX_ROUTES.some((route) => route.method === method && route.path[dialect] === path)) {
					missing.push(`${nameOf(operation)}: no sandbox route ${method} ${path} for the ${dialect} dialect (add an entry to sandbox/routes/)`);
				}
			}
		}
	}
	return missing;
}

const REFERENCE = 'docs/operations.md';

/** The operation names of each resource's tables in the reference's action node section. */
function referenceRows(): Map<string, Set<string>> {
	const reference = readFileSync(join(ROOT, REFERENCE), 'utf8');
	const start = reference.indexOf('\n## Messaging Instance (action node)');
	const end = reference.indexOf('\n## ', start + 1);
	const rows = new Map<string, Set<string>>();
	let resource: string | undefined;
	for (const line of reference.slice(start, end).split('\n')) {
		const heading = /^### ([^(]+?)\s*(\(.*\))?$/.exec(line);
		if (heading) resource = RESOURCE_NAMES.get(heading[1]);
		const row = /^\| ([^|]+?) \|/.exec(line);
		if (resource && row && row[1] !== 'operation' && !row[1].startsWith('---')) {
			if (!rows.has(resource)) rows.set(resource, new Set());
			// A row may list operations that share a route: "Add to Chat / Remove From Chat".
			for (const name of row[1].split(' / ')) rows.get(resource)?.add(name);
		}
	}
	return rows;
}

function missingReferenceRows(operations: readonly Operation[]): string[] {
	const rows = referenceRows();
	return operations
		.filter((operation) => !rows.get(operation.resource)?.has(operation.name))
		.map((operation) => `${nameOf(operation)}: no row "| ${operation.name} |" in ${REFERENCE}'s tables under its resource's heading`);
}

/**
 * The README's summary table: one row per resource, `| [Resource](docs/operations.md#…) (v2) | Name, Name (v2), … |`,
 * "(v2)" on the resource when all of its operations need a v2 server, else on each one that does.
 */
function summaryMismatches(readme: string, operations: readonly Operation[]): string[] {
	const listed = new Map<string, Map<string, boolean>>();
	for (const line of readme.split('\n')) {
		const row = /^\| \[([^\]]+)\]\(docs\/operations\.md#[^)]+\)( \(v2\))? \| (.+) \|$/.exec(line);
		const resource = row && RESOURCE_NAMES.get(row[1]);
		if (!row || !resource) continue;
		const names = new Map<string, boolean>();
		for (const entry of row[3].split(', ')) {
			const name = /^(.+?)( \(v2\))?$/.exec(entry) as RegExpExecArray;
			names.set(name[1], Boolean(row[2] || name[2]));
		}
		listed.set(resource, names);
	}
	const problems: string[] = [];
	for (const operation of operations) {
		const v2 = listed.get(operation.resource)?.get(operation.name);
		if (v2 === undefined) problems.push(`${nameOf(operation)}: not in the row of its resource in the README's Operations table`);
		else if (v2 !== Boolean(operation.v2Only)) problems.push(`${nameOf(operation)}: ${v2 ? 'marked (v2) in the README, but it serves both dialects' : 'needs a v2 server, but the README does not mark it (v2)'}`);
	}
	for (const [resource, names] of listed) {
		for (const name of names.keys()) {
			if (!operations.some((operation) => operation.resource === resource && operation.name === name)) problems.push(`${name} (${resource}): in the README's Operations table, but not in the registry`);
		}
	}
	return problems;
}

/** The operations the end-to-end tier runs: every `resource: '…', operation: '…'` of e2e/. */
function e2eOperations(): Set<string> {
	const folder = join(ROOT, 'e2e');
	const found = new Set<string>();
	for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts'))) {
		const source = readFileSync(join(folder, file), 'utf8');
		for (const match of source.matchAll(/resource: '(\w+)',\s*operation: '(\w+)'/g)) found.add(`${match[1]}:${match[2]}`);
	}
	return found;
}

function missingE2eCases(operations: readonly Operation[]): string[] {
	const run = e2eOperations();
	return operations
		.filter((operation) => !run.has(`${operation.resource}:${operation.value}`))
		.map((operation) => `${nameOf(operation)}: no end-to-end case (add it to e2e/everyOperation.ts V2_OPERATIONS, or e2e/workflows.ts for the documented dialect)`);
}

/** Every count of operations the text states ("102 operations"), with the line it is on. */
function statedCounts(text: string): Array<{ line: number; count: number }> {
	return text.split('\n').flatMap((content, index) => [...content.matchAll(/\b(\d+) operations\b/g)].map((match) => ({ line: index + 1, count: Number(match[1]) })));
}

function wrongCounts(text: string, operations: readonly Operation[]): string[] {
	return statedCounts(text)
		.filter(({ count }) => count !== operations.length)
		.map(({ line, count }) => `line ${line} says ${count} operations; the registry has ${operations.length}`);
}

/** The sandbox names its dialects itself (it never imports nodes/); the type check holds the two names as one set. */
const SAME_DIALECT_NAMES: [DialectName, SandboxDialect] extends [SandboxDialect, DialectName] ? true : false = true;

describe('every operation of the registry is served, documented and run end to end', () => {
	test('node and sandbox know the same dialect names', () => {
		expect(SAME_DIALECT_NAMES).toBe(true);
		const served = new Set(SANDBOX_ROUTES.flatMap((route) => Object.keys(route.path)));
		expect([...served].sort()).toEqual(['documented', 'v2']);
		expect(dialectOf('documented').name).toBe('documented');
		expect(dialectOf('v2').name).toBe('v2');
	});

	test(`${REFERENCE} has a table for each resource`, () => {
		expect([...referenceRows().keys()].sort()).toEqual([...new Set(OPERATIONS.map((operation) => operation.resource))].sort());
	});

	test('each operation has a sandbox route for each dialect it serves', () => {
		expect(missingSandboxRoutes(OPERATIONS)).toEqual([]);
	});

	test(`each operation has a row in ${REFERENCE}`, () => {
		expect(missingReferenceRows(OPERATIONS)).toEqual([]);
	});

	test("the README's Operations table lists each resource's operations, marking those that need a v2 server", () => {
		expect(summaryMismatches(readFileSync(join(ROOT, 'README.md'), 'utf8'), OPERATIONS)).toEqual([]);
	});

	test('a summary row that misses, adds or mismarks an operation is named', () => {
		const row = '| [Setting](docs/operations.md#setting) | Set (v2), Reset |';
		expect(summaryMismatches(row, OPERATIONS.filter((operation) => operation.resource === 'settings'))).toEqual([
			'Set (settings:set): marked (v2) in the README, but it serves both dialects',
			'Get (settings:get): not in the row of its resource in the README\'s Operations table',
			"Reset (settings): in the README's Operations table, but not in the registry",
		]);
	});

	test('each operation has an end-to-end case', () => {
		expect(missingE2eCases(OPERATIONS)).toEqual([]);
	});

	test("the README's and the docs' counts of operations are the registry's", () => {
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
		expect(statedCounts(readme).length).toBeGreaterThan(0);
		const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
		const texts = [['README.md', readme], ...docs.map((name) => [`docs/${name}`, readFileSync(join(ROOT, 'docs', name), 'utf8')])];
		expect(texts.flatMap(([file, text]) => wrongCounts(text, OPERATIONS).map((problem) => `${file}: ${problem}`))).toEqual([]);
	});

	test('a stale count is named with its line', () => {
		expect(wrongCounts('# Title\nThe node: 85 operations and more.', OPERATIONS)).toEqual([`line 2 says 85 operations; the registry has ${OPERATIONS.length}`]);
	});

	test('an operation whose path depends on the item needs a sandbox route for each of its paths', () => {
		const probe: Operation = {
			resource: 'chatbot',
			value: 'contractProbe',
			name: 'Contract Probe',
			action: 'Probe',
			description: 'Not registered',
			properties: [],
			method: 'GET',
			v2Only: true,
			path: '/typebot/fetch/{id}',
			itemPaths: ['/typebot/fetch/{id}', '/probebot/fetch/{id}'],
		};
		expect(missingSandboxRoutes([probe])).toEqual([
			'Contract Probe (chatbot:contractProbe): no sandbox route GET /probebot/fetch/{id}/{instance} for the v2 dialect (add an entry to sandbox/routes/)',
		]);
	});

	test('an operation missing everywhere is named with each missing piece', () => {
		const stray: Operation = {
			resource: 'chat',
			value: 'contractProbe',
			name: 'Contract Probe',
			action: 'Probe',
			description: 'Not registered',
			properties: [],
			method: 'GET',
			path: '/chat/contractProbe',
		};
		expect([...missingSandboxRoutes([stray]), ...missingReferenceRows([stray]), ...missingE2eCases([stray])]).toEqual([
			'Contract Probe (chat:contractProbe): no sandbox route GET /chat/contractProbe/{instance} for the documented dialect (add an entry to sandbox/routes/)',
			'Contract Probe (chat:contractProbe): no sandbox route GET /chat/contractProbe/{instance} for the v2 dialect (add an entry to sandbox/routes/)',
			'Contract Probe (chat:contractProbe): no row "| Contract Probe |" in docs/operations.md\'s tables under its resource\'s heading',
			'Contract Probe (chat:contractProbe): no end-to-end case (add it to e2e/everyOperation.ts V2_OPERATIONS, or e2e/workflows.ts for the documented dialect)',
		]);
	});
});
