/** Unit, sandbox and engine tests. The real-n8n tier lives in e2e/ and runs from `npm run test:e2e`. */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true } }] },
	testTimeout: 30000,
	setupFilesAfterEnv: ['<rootDir>/test/harness/teardown.ts'],
	// n8n's AI node SDK, for the chat memory: installed out of the tree (scripts/aiSdk.ts says why), found like a module of node_modules.
	globalSetup: '<rootDir>/test/harness/aiSdkSetup.ts',
	modulePaths: ['<rootDir>/.ai-sdk/node_modules'],
	// Skipped tests are listed loudly at the end, and fail the run with CI=true.
	reporters: ['default', '<rootDir>/test/reporters/skipped.js'],
};
