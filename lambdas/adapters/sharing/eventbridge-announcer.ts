/**
 * BundleAnnouncer over EventBridge: one "Bundle Published" event (source and detail type of
 * BUNDLE_PUBLISHED) put on the stack's own default bus, from where the publisher's rule
 * forwards it to the consumers' buses. PutEvents answers 200 even when an entry was refused,
 * so its `FailedEntryCount` is checked: an entry EventBridge failed to take is an error too.
 */
import { PutEventsCommand, type EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { RalphError, TransientError } from '../../core/errors.js';
import { BUNDLE_PUBLISHED, type BundlePublishedDetail } from '../../core/schemas/sharing.js';
import type { BundleAnnouncer } from '../../sharing-ports.js';
import { describeAwsError, isTransientAwsError } from '../aws-errors.js';

/** Entry error codes worth trying again later (EventBridge's own trouble, not the event's). */
const TRANSIENT_ENTRY_ERRORS = new Set(['InternalFailure', 'ThrottlingException']);

export interface EventBridgeAnnouncerOptions {
  /** Built by `createEventBridgeClient` (timeouts, bounded retries with backoff). */
  client: EventBridgeClient;
  /** @default 'default': the account's default bus */
  busName?: string;
}

/**
 * @example
 * await new EventBridgeAnnouncer({ client: createEventBridgeClient() }).announce(detail);
 */
export class EventBridgeAnnouncer implements BundleAnnouncer {
  readonly #client: EventBridgeClient;
  readonly #busName: string;

  constructor({ client, busName = 'default' }: EventBridgeAnnouncerOptions) {
    this.#client = client;
    this.#busName = busName;
  }

  async announce(detail: BundlePublishedDetail): Promise<void> {
    const call = `EventBridge PutEvents on ${this.#busName} for ${detail.key}`;
    const answer = await this.#client
      .send(
        new PutEventsCommand({
          Entries: [
            {
              EventBusName: this.#busName,
              Source: BUNDLE_PUBLISHED.source,
              DetailType: BUNDLE_PUBLISHED.detailType,
              Detail: JSON.stringify(detail),
            },
          ],
        }),
      )
      .catch((error: unknown) => {
        const message = `${call} failed: ${describeAwsError(error)}`;
        if (isTransientAwsError(error)) throw new TransientError(message, { cause: error });
        throw new RalphError(message, { cause: error, code: 'EVENTBRIDGE_ERROR' });
      });
    if ((answer.FailedEntryCount ?? 0) === 0) return;
    const entry = answer.Entries?.[0];
    const message = `${call}: the event was not taken (${entry?.ErrorCode ?? 'no error code'}: ${entry?.ErrorMessage ?? 'no message'})`;
    if (TRANSIENT_ENTRY_ERRORS.has(entry?.ErrorCode ?? '')) throw new TransientError(message);
    throw new RalphError(message, { code: 'EVENTBRIDGE_ERROR' });
  }
}
