/**
 * The published workflows that use the sandbox, and registering their webhooks again: the
 * sandbox may have forgotten them, or n8n's port may have changed.
 */
import { TRIGGER_TYPE } from '../demo-workflow';
import type { RestClient } from '../n8n-runtime';
import type { Sandbox } from '../../sandbox/server';

interface WorkflowNode {
	type: string;
	webhookId?: string;
	credentials?: Record<string, { id?: string }>;
}

/**
 * The published workflows whose published version has our trigger on the given credential.
 * Their webhook lives in the sandbox's memory, which a restart empties.
 */
export async function publishedSandboxWorkflows(
	rest: RestClient,
	credentialId: string,
): Promise<Array<{ id: string; name: string; activeVersionId: string; webhookIds: string[] }>> {
	const list = await rest.call('GET', '/workflows');
	const rows: Array<{ id: string; activeVersionId?: string | null; active?: boolean }> = Array.isArray(list)
		? list
		: (list?.results ?? list?.data ?? []);
	const found: Array<{ id: string; name: string; activeVersionId: string; webhookIds: string[] }> = [];
	for (const row of rows) {
		if (!row.activeVersionId && !row.active) continue;
		const wf = await rest.getWorkflow(row.id);
		// n8n 1.x has no drafts: an active workflow's saved nodes are the ones that run.
		const published = (wf.activeVersion?.nodes ?? (wf.active ? wf.nodes : [])) as WorkflowNode[];
		if (!wf.activeVersionId) continue;
		const triggers = published.filter((n) => n.type === TRIGGER_TYPE && n.credentials?.messagingInstanceApi?.id === credentialId);
		if (triggers.length > 0) {
			const webhookIds = triggers.map((n) => n.webhookId ?? '').filter(Boolean);
			found.push({ id: wf.id, name: wf.name, activeVersionId: wf.activeVersionId, webhookIds });
		}
	}
	return found;
}

/** The sandbox holds an enabled webhook to this n8n's production URL of `webhookId` (it kept it across the restart). */
export function webhookHeld(sandbox: Sandbox, n8nUrl: string, webhookId: string): boolean {
	return sandbox
		.instanceNames()
		.some((name) => {
			const hook = sandbox.webhookOf(name);
			return !!hook?.enabled && hook.url.startsWith(`${n8nUrl}/webhook/${webhookId}`);
		});
}

interface PublicationStatus {
	status: 'in_progress' | 'not_published' | 'published' | 'partial' | 'failed' | string;
	triggers?: Array<{ nodeId: string; status: string; errorMessage?: string | null }>;
}

/** n8n 2.x publishes in the background (an outbox): wait until it has settled. */
async function settledPublication(rest: RestClient, id: string, until: (s: PublicationStatus) => boolean): Promise<PublicationStatus> {
	let status: PublicationStatus = { status: 'in_progress' };
	for (let i = 0; i < 80; i++) {
		const res = await rest.raw('GET', `/workflows/${id}/publication-status`);
		// n8n 1.x publishes synchronously and has no such route: activation has settled.
		if (res.status === 404) return { status: 'settled' };
		if (res.status >= 400) throw new Error(`GET /rest/workflows/${id}/publication-status -> ${res.status} ${res.body.slice(0, 500)}`);
		const parsed = JSON.parse(res.body) as { data?: PublicationStatus } & PublicationStatus;
		status = parsed.data ?? parsed;
		if (status.status !== 'in_progress' && until(status)) break;
		await new Promise((r) => setTimeout(r, 250));
	}
	return status;
}

/**
 * Registers a published workflow's webhooks again, with the same published version: n8n
 * 2.40.7 registers a trigger's webhook only when it publishes a version whose webhook it has
 * not stored (the sandbox forgot it; the n8n port may have changed), so unpublish, then
 * publish the version that was published (`versionId` = activeVersionId, never the draft's
 * versionId). The draft and the published version stay as they were.
 */
export async function registerAgain(rest: RestClient, id: string, activeVersionId: string): Promise<void> {
	await rest.call('POST', `/workflows/${id}/deactivate`, {});
	await settledPublication(rest, id, (s) => s.status === 'not_published');
	await rest.call('POST', `/workflows/${id}/activate`, { versionId: activeVersionId });
	const status = await settledPublication(rest, id, () => true);
	const failed = (status.triggers ?? []).filter((t) => t.status === 'failed');
	if (failed.length > 0) throw new Error(failed.map((t) => t.errorMessage ?? 'trigger failed').join('; '));
}
