/**
 * Presigned GET URLs to artefacts: the API redirects a caller to one instead of streaming
 * the artefact through a Lambda (no payload limit, no Lambda time spent on bytes). The URL
 * carries the signing function's own permission, so it reaches only what that function may
 * read, and only until it expires.
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export function artefactUrlSigner(
  client: S3Client,
  bucket: string,
): (key: string, expiresInSeconds: number) => Promise<string> {
  return (key, expiresInSeconds) =>
    getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
}
