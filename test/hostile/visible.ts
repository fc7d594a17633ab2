import type { NodeRun } from '../harness/engine';

/**
 * Everything a user or n8n's stored run could see of a node's run: its items, the stored run
 * data and every field of its error. The stored error names its node with the user's own
 * parameters (a password typed there is the user's): left out.
 */
export function visible(run: NodeRun): string {
	const error = run.error as unknown as Record<string, unknown> | undefined;
	const fields = error ? Object.getOwnPropertyNames(error).filter((name) => name !== 'node').map((name) => `${name}:${JSON.stringify(error[name] ?? null)}`) : [];
	const runData = (run.run.data.resultData.runData['Messaging Instance'] ?? []).map((task) => ({ ...task, error: task.error ? { ...task.error, node: undefined } : undefined }));
	return [JSON.stringify(run.items), JSON.stringify(runData), ...fields, error?.stack ?? ''].join('\n');
}
