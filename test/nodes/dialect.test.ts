import { compareVersions, dialectOf, factsOf, type DialectTable } from '../../nodes/shared/dialect';

describe('the dialect: cross-cutting facts, and operation tables refined by server version', () => {
	const table: DialectTable<{ field: string; limit: number }> = {
		documented: { field: 'values', limit: 1 },
		v2: { field: 'sections', limit: 2 },
		byVersion: [
			{ dialect: 'v2', from: '2.3.7', facts: { limit: 3 } },
			{ dialect: 'v2', from: '2.4.0-rc1', facts: { field: 'rows' } },
		],
	};

	test('a table gives the dialect\'s facts; without a known version the base ones', () => {
		expect(factsOf(table, dialectOf('documented'))).toEqual({ field: 'values', limit: 1 });
		expect(factsOf(table, dialectOf('v2'))).toEqual({ field: 'sections', limit: 2 });
		expect(factsOf(table, dialectOf('something else'))).toEqual({ field: 'values', limit: 1 });
	});

	test('a server version refines them from the version on, later entries on top', () => {
		expect(factsOf(table, dialectOf('v2', '2.3.6'))).toEqual({ field: 'sections', limit: 2 });
		expect(factsOf(table, dialectOf('v2', '2.3.7'))).toEqual({ field: 'sections', limit: 3 });
		expect(factsOf(table, dialectOf('v2', '2.4.0-rc2'))).toEqual({ field: 'rows', limit: 3 });
		expect(factsOf(table, dialectOf('documented', '2.4.0'))).toEqual({ field: 'values', limit: 1 });
	});

	test('versions order by their numbers, a pre-release before its release', () => {
		expect(['2.4.0', '2.3.10', '2.3.7', '2.4.0-rc2', '2.3.6'].sort(compareVersions)).toEqual(['2.3.6', '2.3.7', '2.3.10', '2.4.0-rc2', '2.4.0']);
	});

	test('a dialect\'s label reads right in a sentence', () => {
		expect(`a ${dialectOf('v2').label} server`).toBe('a v2.x server');
		expect(`a ${dialectOf('documented').label} server`).toBe('a documented interface server');
		expect(`a ${dialectOf('v2', '2.3.7').label} server`).toBe('a v2.3.7 server');
	});
});
