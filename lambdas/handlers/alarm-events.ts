import { Logger } from '@aws-lambda-powertools/logger';
import { nodeHookDigest } from '../adapters/hook-digest.js';
import { InvalidInputError } from '../core/errors.js';
import type { IntakeDeps } from '../core/intake/deps.js';
import { recordDelivery } from '../core/intake/record-delivery.js';
import { intakeDepsFromEnvironment } from './intake-environment.js';

/**
 * CloudWatch alarms, as AWS invokes this function itself (IAM, no signature): the stack's
 * EventBridge rule on `CloudWatch Alarm State Change`, or an SNS topic's Lambda subscription
 * (the alarm JSON in each record's `Message`). A delivery that can never be taken (not an
 * alarm) is logged and dropped rather than retried for a day; a store out of reach throws,
 * and AWS retries it.
 */
export const makeAlarmEventsHandler =
  (deps: () => IntakeDeps, logger = new Logger({ serviceName: 'ralph-cloud' })) =>
  async (event: unknown) => {
    const body = JSON.stringify(event);
    try {
      const { answer } = await recordDelivery(deps(), {
        source: 'cloudwatch',
        headers: {},
        body,
        replayKey: `cloudwatch:${deliveryIdOf(event) ?? nodeHookDigest.sha256Hex(Buffer.from(body))}`,
      });
      logger.info('alarm delivery', { answer });
      return answer;
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      logger.error('alarm delivery refused', { issues: error.issues });
      return { outcome: 'refused', issues: error.issues };
    }
  };

/** The id AWS gives a delivery and keeps on its retries: the EventBridge event's, or the SNS messages'. */
function deliveryIdOf(event: unknown): string | undefined {
  const value = event as { id?: unknown; Records?: { Sns?: { MessageId?: unknown } }[] } | null;
  if (typeof value?.id === 'string') return value.id;
  const ids = (Array.isArray(value?.Records) ? value.Records : []).map(
    (record) => record.Sns?.MessageId,
  );
  return ids.length > 0 && ids.every((id) => typeof id === 'string') ? ids.join(',') : undefined;
}

export const handler = makeAlarmEventsHandler(intakeDepsFromEnvironment);
