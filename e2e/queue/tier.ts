/**
 * What the queue-mode tier's checks share: set up by the first checks (the gates) and read by
 * the ones after them.
 */
import type { ChildProcess } from 'node:child_process';

import type { RestClient } from '../../scripts/n8n-runtime';
import type { ServiceBinaries, Services } from '../../scripts/services';
import type { RecordedDelivery, Sandbox } from '../../sandbox/server';
import type { Balancer } from '../balancer';
import type { Cluster } from './cluster';

/** The workflows' instances: the reply-once pattern, the reply without it, media. */
export const INSTANCES = ['demo', 'naive', 'media'] as const;
export type InstanceName = (typeof INSTANCES)[number];

export interface Tier {
	/** temporary folder of the user folders */
	readonly root: string;
	readonly bins: ServiceBinaries;
	tarball: string;
	services?: Services;
	sandbox?: Sandbox;
	balancer?: Balancer;
	cluster?: Cluster;
	rest?: RestClient;
	/** workflow id per instance */
	ids?: Record<InstanceName, string>;
	/** the webhook URL (with its secret) the main process registered per instance */
	registered: Partial<Record<InstanceName, string>>;
	/** the delivery sent to both webhook processes at once, its dedupe counter and its text */
	duplicate?: { delivery: RecordedDelivery; key: string; text: string };
	/** processes a check started beside the cluster (the burst's CPU load), stopped with it */
	extraProcesses: ChildProcess[];
}

/** The parts of a tier that exist once the cluster is up; throws before that. */
export function running(t: Tier): Required<Pick<Tier, 'services' | 'sandbox' | 'balancer' | 'cluster' | 'rest' | 'ids'>> {
	const { services, sandbox, balancer, cluster, rest, ids } = t;
	if (!services || !sandbox || !balancer || !cluster || !rest || !ids) throw new Error('not run: the cluster and its workflows are not set up');
	return { services, sandbox, balancer, cluster, rest, ids };
}

export function figure(line: string): void {
	console.log(`     ${line}`);
}

export function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** Each attempt of a delivery as one readable line: the status and the answer's start, or the error (timeout, reset). */
export function describeAttempts(d: RecordedDelivery | undefined): string {
	if (!d) return 'no delivery (no enabled webhook wants the event)';
	return d.attempts
		.map((a, n) => `attempt ${n + 1}: ${a.status !== undefined ? `HTTP ${a.status}${a.responseBody ? ` ${JSON.stringify(a.responseBody.slice(0, 200))}` : ''}` : (a.error ?? 'no answer')}`)
		.join('; ');
}
