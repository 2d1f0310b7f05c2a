/**
 * The latency figures: per workload, signed deliveries through the local server and
 * in-process, one at a time, the two paths alternating call by call after a warm-up of
 * both (bench/api/alternate.ts says why).
 */
import type { HookEventAnswer } from '../../lambdas/core/schemas/hook-answer.js';
import { alternately, type Sampler } from '../api/alternate.js';
import type { PathTimes } from '../api/measure-latency.js';
import type { Workload } from './deliveries.js';
import { deliverInProcess, deliveryTime, postDelivery } from './hook-calls.js';
import type { IntakeUnderTest } from './intake-under-test.js';
import type { SentrySender } from './sentry-sender.js';

/** What becomes of each delivery's group: a new one joins its batch, a repeat is counted. */
export const EXPECTED_OUTCOME: Record<Workload, HookEventAnswer['outcome']> = {
  'new-groups': 'queued',
  repeats: 'repeat',
};

/** The two paths for `workload`: each signs its next delivery, then times it. */
export function samplersFor(
  intake: IntakeUnderTest,
  sender: SentrySender,
  workload: Workload,
): [Sampler, Sampler] {
  const outcome = EXPECTED_OUTCOME[workload];
  return [
    async () => deliveryTime(await postDelivery(intake.url, sender.next(workload)), outcome),
    async () => deliveryTime(await deliverInProcess(intake.entry, sender.next(workload)), outcome),
  ];
}

/** Warms both paths up, then times `samples` deliveries of each. */
export async function measureSequential(
  intake: IntakeUnderTest,
  sender: SentrySender,
  workload: Workload,
  counts: { warmup: number; samples: number },
): Promise<PathTimes> {
  const samplers = samplersFor(intake, sender, workload);
  await alternately(counts.warmup, samplers);
  const [http, inProcess] = await alternately(counts.samples, samplers);
  return { http, inProcess };
}
