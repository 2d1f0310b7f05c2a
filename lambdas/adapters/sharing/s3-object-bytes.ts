/** A shared bundle named by an `s3://bucket/key` URI, read as its bytes (nothing decoded). */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { InvalidInputError, NotFoundError } from '../../core/errors.js';
import { toStoreError } from '../aws-errors.js';

export interface S3Location {
  bucket: string;
  key: string;
}

/** `s3://bucket/key` split; InvalidInputError naming `where` for anything else. */
export function s3LocationOf(uri: string, where: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!match) throw new InvalidInputError(where, [`${uri}: expected s3://<bucket>/<key>`]);
  return { bucket: match[1]!, key: match[2]! };
}

/** The object's bytes; the client's timeout and retries apply. */
export async function s3ObjectBytes(client: S3Client, location: S3Location): Promise<Uint8Array> {
  try {
    const result = await client.send(
      new GetObjectCommand({ Bucket: location.bucket, Key: location.key }),
    );
    return result.Body === undefined ? new Uint8Array() : await result.Body.transformToByteArray();
  } catch (error) {
    if (error instanceof Error && error.name === 'NoSuchKey')
      throw new NotFoundError(`no object s3://${location.bucket}/${location.key}`, {
        cause: error,
      });
    throw toStoreError(error, `S3 GetObject s3://${location.bucket}/${location.key}`);
  }
}
