import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { LIST_LIMITS } from '../../nodes/MessagingInstance/actions/pages';
import { runNode, type NodeRun } from '../harness/engine';
import { useHostileServer } from '../hostile/server';

/**
 * Return All against servers that never end a list: each stops with an error that says why,
 * after a bounded number of requests, never with a silently cut list.
 */

const KEY = 'bounded-lists-key-1234567890';

const records = (count: number, from = 0): IDataObject[] => Array.from({ length: count }, (_, i) => ({ id: `r${from + i}` }));

describe('Return All is bounded', () => {
	const hostile = useHostileServer();

	async function run(parameters: INodeParameters, options: { timeout?: number; continueOnFail?: boolean } = {}): Promise<NodeRun> {
		return await runNode({
			parameters: { instance: 'demo', ...parameters },
			continueOnFail: options.continueOnFail,
			credentials: { baseUrl: hostile.current.url, apiKey: KEY, dialect: 'v2', timeout: options.timeout ?? 60 },
		});
	}

	const bodies = () => hostile.current.seen.map((request) => JSON.parse(request.body) as IDataObject);

	test('a server repeating full pages stops at the page limit with an error, not 100,000 silent items', async () => {
		hostile.current.answerAll(() => ({ json: records(100) }));
		const result = await run({ resource: 'contact', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe(`The list has more than ${LIST_LIMITS.pages} pages; Return All stops there`);
		expect(result.items).toEqual([]);
		expect(hostile.current.seen).toHaveLength(LIST_LIMITS.pages);
		expect(bodies()[0]).toEqual({ where: {}, page: 1, offset: 100 });
		expect(bodies()[LIST_LIMITS.pages - 1]).toEqual({ where: {}, page: LIST_LIMITS.pages, offset: 100 });
	});

	test('with Continue On Fail the limit is an error item of that input item', async () => {
		hostile.current.answerAll(() => ({ json: records(50) }));
		const result = await run({ resource: 'chat', operation: 'getMany', returnAll: true }, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{ json: expect.objectContaining({ error: `The list has more than ${LIST_LIMITS.pages} pages; Return All stops there` }), pairedItem: { item: 0 } },
		]);
		expect(hostile.current.seen).toHaveLength(LIST_LIMITS.pages);
	});

	test('a page larger than asked is an error', async () => {
		hostile.current.answerAll(() => ({ json: records(50) }));
		const result = await run({ resource: 'chat', operation: 'getMany', returnAll: false, limit: 10 });
		expect(result.error?.message).toBe('The server answered page 1 with 50 records, more than the 10 asked for');
		expect(bodies()).toEqual([{ where: {}, take: 10, skip: 0 }]);
		expect(result.items).toEqual([]);
	});

	test('a message page counter that does not advance is an error', async () => {
		hostile.current.answerAll(() => ({ json: { messages: { total: 150, pages: 3, currentPage: 1, records: records(50) } } }));
		const result = await run({ resource: 'message', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe('The server answered page 1 when asked for page 2');
		expect(bodies()).toEqual([
			{ where: {}, page: 1, offset: 50 },
			{ where: {}, page: 2, offset: 50 },
		]);
	});

	test('an honest message paging is read to its end', async () => {
		hostile.current.answerAll((request) => {
			const page = Number((JSON.parse(request.body) as IDataObject).page);
			return { json: { messages: { total: 120, pages: 3, currentPage: page, records: records(page === 3 ? 20 : 50, (page - 1) * 50) } } };
		});
		const result = await run({ resource: 'message', operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(records(120).map((record) => record.id));
		expect(hostile.current.seen).toHaveLength(3);
	});

	test('a whole list past the item limit is an error', async () => {
		hostile.current.answerAll(() => ({ json: records(LIST_LIMITS.items + 1) }));
		const result = await run({ resource: 'instance', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe('The list has more than 100,000 records; Return All stops there');
		expect(result.items).toEqual([]);
		expect(hostile.current.seen.map((request) => [request.method, request.path])).toEqual([['GET', '/instance/fetchInstances']]);
	});

	test('a list that takes longer than ten request timeouts stops with an error', async () => {
		// Each page well within the 1 s timeout even on a loaded machine (a 60 ms page against a
		// 0.2 s timeout once timed out under CI's load, so the single request's error came first).
		hostile.current.answerAll(() => ({ json: records(100), delayMs: 150 }));
		const result = await run({ resource: 'contact', operation: 'getMany', returnAll: true }, { timeout: 1 });
		expect(result.error?.message).toMatch(/^Reading the list took longer than 10 request timeouts \(10 s\); it stopped at page \d+$/);
		// About 10 s of 150 ms pages: far fewer than the page limit (1,000).
		expect(hostile.current.seen.length).toBeGreaterThan(2);
		expect(hostile.current.seen.length).toBeLessThan(100);
	}, 30_000);
});
