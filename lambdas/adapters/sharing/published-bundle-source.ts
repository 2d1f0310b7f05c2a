/**
 * Where an announced bundle is read from, and whether it may be: the announcing account
 * must be a trusted publisher, the object must be in that publisher's bucket under the
 * bundle prefix, and its bytes must be the ones announced (SHA-256). Anything else is
 * refused before a byte of it reaches the import. The read is cross-account: the
 * publisher's bucket policy lets the organisation read its bundle prefix.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { BundlePublishedDetail } from '../../core/schemas/sharing.js';
import { toStoreError } from '../aws-errors.js';
import { sharingKeys } from '../../core/shared/sharing-keys.js';
import type { TrustedPublisher } from './trusted-publishers.js';

/** Far above any bundle of patterns, and far below the function's memory. */
export const MAX_ENVELOPE_BYTES = 32 * 1024 * 1024;

export type FetchedBundle =
  | { ok: true; bytes: Uint8Array; origin: string; publisher: TrustedPublisher }
  | { ok: false; why: string };

export interface PublishedBundleSourceOptions {
  client: S3Client;
  publishers: readonly TrustedPublisher[];
}

/**
 * @example
 * const fetched = await source.fetch(event.account, event.detail);
 * if (fetched.ok) await receiveBundle(deps, fetched.bytes, fetched.origin);
 */
export class PublishedBundleSource {
  readonly #client: S3Client;
  readonly #publishers: readonly TrustedPublisher[];

  constructor({ client, publishers }: PublishedBundleSourceOptions) {
    this.#client = client;
    this.#publishers = publishers;
  }

  async fetch(account: string, detail: BundlePublishedDetail): Promise<FetchedBundle> {
    const publisher = this.#publishers.find((trusted) => trusted.account === account);
    const origin = `s3://${detail.bucket}/${detail.key}`;
    if (!publisher) return { ok: false, why: `account ${account} is not a trusted publisher` };
    if (detail.bucket !== publisher.bucket)
      return {
        ok: false,
        why: `${origin} is not in bucket ${publisher.bucket}, where account ${account} publishes`,
      };
    if (!detail.key.startsWith(sharingKeys.bundlePrefix) || detail.key.includes('..'))
      return { ok: false, why: `${origin} is not under ${sharingKeys.bundlePrefix}` };
    const bytes = await this.#read(detail, origin);
    if (bytes === 'missing') return { ok: false, why: `${origin} is not there (any more)` };
    if (bytes === undefined)
      return { ok: false, why: `${origin} is larger than ${MAX_ENVELOPE_BYTES} bytes` };
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (digest !== detail.digest)
      return {
        ok: false,
        why: `${origin} has SHA-256 ${digest}, not the announced ${detail.digest}: it changed since it was announced`,
      };
    return { ok: true, bytes, origin, publisher };
  }

  /** The object's bytes; undefined when it is too large to take. */
  async #read(
    detail: BundlePublishedDetail,
    origin: string,
  ): Promise<Uint8Array | 'missing' | undefined> {
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({ Bucket: detail.bucket, Key: detail.key }),
      );
      if ((answer.ContentLength ?? 0) > MAX_ENVELOPE_BYTES) {
        // Not read: the connection is dropped instead of downloading what is refused.
        (answer.Body as { destroy?: () => void } | undefined)?.destroy?.();
        return undefined;
      }
      return (await answer.Body?.transformToByteArray()) ?? new Uint8Array();
    } catch (error) {
      const failure = error as { name?: unknown; $metadata?: { httpStatusCode?: number } };
      if (failure.name === 'NoSuchKey' || failure.$metadata?.httpStatusCode === 404)
        return 'missing';
      throw toStoreError(error, `S3 GetObject ${origin}`);
    }
  }
}
