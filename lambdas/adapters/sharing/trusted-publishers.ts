/**
 * The publishers a deployed stack trusts: an AWS account, the KMS key it signs bundles
 * with, and the bucket it publishes them in (under `shared/bundles/`), so that the import
 * function may read that bucket's bundles and nothing else. One schema for the stack's context (lib/), the import function's environment
 * (`TRUSTED_PUBLISHERS`, JSON) and the trust store built from it, so that what was deployed
 * is what is checked.
 */
import { z } from 'zod';
import { InvalidInputError } from '../../core/errors.js';

/** `arn:<partition>:kms:<region>:<account>:key/<key id>`: a key, never an alias. */
const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:(\d{12}):key\/[A-Za-z0-9-]+$/;

export const TrustedPublisherSchema = z
  .strictObject({
    account: z.string().regex(/^\d{12}$/, 'a 12-digit AWS account id'),
    keyArn: z.string().regex(KMS_KEY_ARN, 'a KMS key ARN (arn:aws:kms:REGION:ACCOUNT:key/ID)'),
    bucket: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "an S3 bucket name (the publisher's BucketName output)",
      ),
    /** The publisher bucket's customer-managed key, if it has one (the default stack has none). */
    bucketKeyArn: z.string().regex(KMS_KEY_ARN, 'a KMS key ARN').optional(),
  })
  .refine((publisher) => KMS_KEY_ARN.exec(publisher.keyArn)?.[1] === publisher.account, {
    message: "the key ARN must name the publisher's own account",
    path: ['keyArn'],
  });
export type TrustedPublisher = z.infer<typeof TrustedPublisherSchema>;

export const TrustedPublishersSchema = z.array(TrustedPublisherSchema);

/**
 * Parses the trusted publishers from JSON text, naming `where` they came from in the error.
 *
 * @example
 * parseTrustedPublishers(process.env.TRUSTED_PUBLISHERS ?? '[]', 'TRUSTED_PUBLISHERS');
 */
export function parseTrustedPublishers(text: string, where: string): TrustedPublisher[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidInputError(where, [
      'not JSON: give [{"account":"111122223333","keyArn":"arn:aws:kms:...","bucket":"..."}]',
    ]);
  }
  const parsed = TrustedPublishersSchema.safeParse(json);
  if (!parsed.success)
    throw new InvalidInputError(
      where,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`),
    );
  return parsed.data;
}
