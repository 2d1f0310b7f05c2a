/**
 * ArtefactStore over one S3 bucket. Artefacts are written once: a rerun writes a new key,
 * so a key always names the same bytes (docs/data-model.md). Writing the same bytes again
 * is accepted: that is what a retried put whose first attempt landed looks like.
 *
 * Every write stores the bytes' sha256 with the object (user metadata `sha256`, in the same
 * PutObject), and every read checks it: bytes changed after the write — on the local
 * emulator's disk, or by a write that bypassed this store — are refused with
 * ArtefactDamagedError rather than served. Objects written before digests were kept have
 * none and are read as they are.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  ArtefactDamagedError,
  ArtefactExistsError,
  InvalidInputError,
  NotFoundError,
  TransientError,
} from '../core/errors.js';
import type { ArtefactStore } from '../ports.js';
import { fullJitterMs, sleep } from './backoff.js';
import { isTransientAwsError, toStoreError } from './aws-errors.js';

export interface S3ArtefactStoreOptions {
  client: S3Client;
  bucket: string;
  /** Where a person finds a key; defaults to `s3://bucket/key`. */
  locateAs?: (key: string) => string;
}

/** Rounds in a row that delete nothing before deletePrefix gives up. */
const DELETE_MAX_ATTEMPTS = 5;
const DELETE_BASE_DELAY_MS = 100;
const DELETE_MAX_DELAY_MS = 2_000;

/** Content types by extension, for the artefacts artefact-keys.ts names. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  md: 'text/markdown; charset=utf-8',
  patch: 'text/x-diff; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/**
 * @example
 * const artefacts = new S3ArtefactStore({ client: createS3Client(), bucket: 'ralph-artefacts' });
 * await artefacts.put(artefactKeys.manifest(runId), JSON.stringify(manifest));
 */
export class S3ArtefactStore implements ArtefactStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #locateAs: (key: string) => string;

  constructor({ client, bucket, locateAs }: S3ArtefactStoreOptions) {
    this.#client = client;
    this.#bucket = bucket;
    this.#locateAs = locateAs ?? ((key) => `s3://${bucket}/${key}`);
  }

  /**
   * Write-once: one PutObject with `If-None-Match: *`, which S3 answers with 412 when the
   * key exists (the local emulator is taught the same in local/emulators.ts).
   *
   * Either refusal first reads the stored object: if it holds exactly `body`'s bytes, the
   * put succeeds without writing (idempotent). That is what the SDK's retry of a put whose
   * reply was lost meets (its own first attempt, answered with 412), and what a replayed
   * step meets. Different bytes throw ArtefactExistsError.
   */
  async put(key: string, body: string | Uint8Array, contentType?: string): Promise<void> {
    try {
      await this.#client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          Body: body,
          // Explicit, so an empty body is still a measured one (the SDK warns otherwise).
          ContentLength: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
          ContentType: contentType ?? contentTypeOf(key),
          Metadata: { [DIGEST_METADATA]: sha256Of(bytesOf(body)) },
          IfNoneMatch: '*',
        }),
      );
    } catch (error) {
      const status = httpStatus(error);
      if (status === 412 || errorName(error) === 'PreconditionFailed') {
        if (await this.#holds(key, body)) return;
        throw new ArtefactExistsError(key, { cause: error });
      }
      // S3 answers 409 when a concurrent conditional write to the same key is in flight;
      // its advice is to retry, which then either succeeds or gets the 412 above.
      if (status === 409)
        throw new TransientError(`S3 PutObject ${this.locate(key)} raced another write`, {
          cause: error,
        });
      throw toStoreError(error, `S3 PutObject ${this.locate(key)}`);
    }
  }

  async getText(key: string): Promise<string> {
    try {
      const result = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: key }),
      );
      const bytes =
        result.Body === undefined ? new Uint8Array() : await result.Body.transformToByteArray();
      const expected = result.Metadata?.[DIGEST_METADATA];
      const actual = sha256Of(bytes);
      if (expected !== undefined && expected !== actual)
        throw new ArtefactDamagedError(this.locate(key), expected, actual);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    } catch (error) {
      if (error instanceof ArtefactDamagedError) throw error;
      if (isNotFound(error))
        throw new NotFoundError(`artefact not found: ${this.locate(key)}`, { cause: error });
      throw toStoreError(error, `S3 GetObject ${this.locate(key)}`);
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw toStoreError(error, `S3 HeadObject ${this.locate(key)}`);
    }
  }

  /**
   * Lists up to 1,000 keys under the prefix, deletes them with one DeleteObjects, and lists
   * again until none is left: the listing starts over each round, so no paging token is
   * needed (s3rver's need a cipher Node no longer ships by default). Keys a DeleteObjects
   * answer reports as not deleted are met again by the next listing; rounds that delete
   * nothing back off, and after DELETE_MAX_ATTEMPTS of them in a row the call gives up
   * with a TransientError (calling again carries on).
   */
  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '' || !prefix.endsWith('/') || prefix.startsWith('/'))
      throw new InvalidInputError('artefact prefix', [
        `(root): "${prefix}" must be a folder such as runs/<runId>/ (ending with "/")`,
      ]);
    let deleted = 0;
    let fruitless = 0;
    for (;;) {
      const keys = await this.#listKeys(prefix);
      if (keys.length === 0) return deleted;
      const gone = await this.#deleteKeys(prefix, keys);
      deleted += gone;
      fruitless = gone === 0 ? fruitless + 1 : 0;
      if (fruitless >= DELETE_MAX_ATTEMPTS)
        throw new TransientError(
          `S3 DeleteObjects under ${this.locate(prefix)}: ${keys.length} objects still there after ${DELETE_MAX_ATTEMPTS} attempts`,
        );
      if (fruitless > 0)
        await sleep(fullJitterMs(fruitless, DELETE_BASE_DELAY_MS, DELETE_MAX_DELAY_MS));
    }
  }

  locate(key: string): string {
    return this.#locateAs(key);
  }

  /** The first (up to) 1,000 keys under `prefix`: ListObjects (V1), no paging token. */
  async #listKeys(prefix: string): Promise<string[]> {
    try {
      const page = await this.#client.send(
        new ListObjectsCommand({ Bucket: this.#bucket, Prefix: prefix, MaxKeys: 1000 }),
      );
      return (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
    } catch (error) {
      throw toStoreError(error, `S3 ListObjects ${this.locate(prefix)}`);
    }
  }

  /** One DeleteObjects (quiet: only failures are reported); returns how many went. */
  async #deleteKeys(prefix: string, keys: readonly string[]): Promise<number> {
    try {
      const result = await this.#client.send(
        new DeleteObjectsCommand({
          Bucket: this.#bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      return keys.length - (result.Errors?.length ?? 0);
    } catch (error) {
      throw toStoreError(error, `S3 DeleteObjects under ${this.locate(prefix)}`);
    }
  }

  /**
   * Whether the object at `key` is byte for byte `body`. A transient read failure is
   * thrown (a retry can tell); any other failure, a missing key included, is `false`, so
   * the caller keeps its ArtefactExistsError.
   */
  async #holds(key: string, body: string | Uint8Array): Promise<boolean> {
    let stored: Uint8Array;
    try {
      const result = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: key }),
      );
      stored =
        result.Body === undefined ? new Uint8Array() : await result.Body.transformToByteArray();
    } catch (error) {
      if (!isNotFound(error) && isTransientAwsError(error))
        throw toStoreError(error, `S3 GetObject ${this.locate(key)}`);
      return false;
    }
    return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).equals(bytesOf(body));
  }
}

/** The user-metadata key of the digest (`x-amz-meta-sha256`). */
const DIGEST_METADATA = 'sha256';

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The bytes S3 stores for `body`: a string is sent as UTF-8. */
function bytesOf(body: string | Uint8Array): Buffer {
  return typeof body === 'string'
    ? Buffer.from(body, 'utf8')
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** GetObject says NoSuchKey; HeadObject has no body, so only `NotFound` / 404. */
function isNotFound(error: unknown): boolean {
  const name = errorName(error);
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatus(error) === 404;
}
