import { Logger } from '@aws-lambda-powertools/logger';
import { nodeHookDigest } from '../adapters/hook-digest.js';
import { InvalidInputError } from '../core/errors.js';
import { cloudWatchDeliveryId } from '../core/incidents/cloudwatch-delivery-id.js';
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
        replayKey: `cloudwatch:${cloudWatchDeliveryId(event) ?? nodeHookDigest.sha256Hex(Buffer.from(body))}`,
      });
      logger.info('alarm delivery', { answer });
      return answer;
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      logger.error('alarm delivery refused', { issues: error.issues });
      return { outcome: 'refused', issues: error.issues };
    }
  };

export const handler = makeAlarmEventsHandler(intakeDepsFromEnvironment);
