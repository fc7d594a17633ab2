import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { clearLog } from './logs';

// n8n-core starts a cleanup interval for SSH tunnels the first time it builds an execution
// context; n8n clears it on shutdown, and so does each test file here, so that jest can exit.
afterAll(() => {
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
});

// n8n's log is captured (logs.ts) and judged by the secret check of the test that wrote it.
beforeEach(() => clearLog());
