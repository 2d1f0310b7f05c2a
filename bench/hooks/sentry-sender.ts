/**
 * Signed Sentry deliveries, one after another per workload, as Sentry sends them: the body
 * of deliveries.ts, a fresh request id, timestamp and signature each, signed with the
 * function `ralph hooks send` uses (core/shared/hook-auth/delivery.ts).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeHookDigest } from '../../lambdas/adapters/hook-digest.js';
import { sentryDeliveryHeaders } from '../../lambdas/core/shared/hook-auth/delivery.js';
import { REPO_ROOT } from '../../lib/paths.js';
import { issueBody, type Workload } from './deliveries.js';

/** The recorded payload every delivery is made from. */
const ISSUE_FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'hooks', 'sentry', 'issue.created.json');

export interface SignedDelivery {
  /** JSON text. */
  body: string;
  /** Lower-case names, as API Gateway hands them over. */
  headers: Record<string, string>;
}

export class SentrySender {
  readonly #template = readFileSync(ISSUE_FIXTURE, 'utf8');
  readonly #sent: Record<Workload, number> = { 'new-groups': 0, repeats: 0 };

  constructor(private readonly clientSecret: string) {}

  /** The workload's next delivery, signed now. */
  next(workload: Workload): SignedDelivery {
    const body = issueBody(this.#template, workload, this.#sent[workload]);
    this.#sent[workload] += 1;
    const headers = sentryDeliveryHeaders({
      body: Buffer.from(body),
      clientSecret: this.clientSecret,
      resource: 'issue',
      now: new Date(),
      requestId: randomUUID(),
      digest: nodeHookDigest,
    });
    return {
      body,
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    };
  }

  /** Deliveries of `workload` made so far. */
  sent(workload: Workload): number {
    return this.#sent[workload];
  }
}
