import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

/**
 * n8n's binary-data service in the mode a run needs: `default` keeps files in memory as
 * base64 on the item (n8n's default), `filesystem` writes them to disk and keeps only an id
 * on the item (N8N_DEFAULT_BINARY_DATA_MODE=filesystem), so a node must read them with n8n's
 * helpers.
 */
export async function setBinaryDataMode(mode: 'default' | 'filesystem'): Promise<{ folder?: string; close(): void }> {
	const logger = { debug() {}, info() {}, warn() {}, error() {} };
	const reporter = { error() {}, warn() {}, info() {} };
	if (mode === 'default') {
		Container.set(BinaryDataService, new BinaryDataService({ mode: 'default' } as never, reporter as never, logger as never));
		return { close() {} };
	}
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-binary-'));
	const service = new BinaryDataService(
		{ mode: 'filesystem', localStoragePath: folder, availableModes: ['default', 'filesystem'] } as never,
		reporter as never,
		logger as never,
	);
	await service.init();
	Container.set(BinaryDataService, service);
	return {
		folder,
		close() {
			fs.rmSync(folder, { recursive: true, force: true });
			Container.set(BinaryDataService, new BinaryDataService({ mode: 'default' } as never, reporter as never, logger as never));
		},
	};
}
