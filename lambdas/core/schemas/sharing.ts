/**
 * Learning shared across accounts: a registry export (a learning bundle) wrapped in a DSSE
 * envelope (https://github.com/secure-systems-lab/dsse: payload type, base64 payload,
 * signatures with key ids) and signed with an ECDSA P-256 key (KMS `ECC_NIST_P256` deployed,
 * a key file locally). Import verifies before it parses; what fails is quarantined whole.
 */
import { z } from 'zod';
import { RegistryScopeSchema } from './learning.js';

/** The DSSE payload type of a learning bundle. */
export const SHARE_PAYLOAD_TYPE = 'application/vnd.ralph-cloud.learning-bundle+json';

/** DSSE: verifiers accept standard and URL-safe base64 alike (signers here write standard). */
const Base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'base64 (standard or URL-safe)');

export const DsseSignatureSchema = z.strictObject({
  /** The key's id: a KMS key ARN, or `local:<SHA-256 of the public key's DER, hex>`. */
  keyid: z.string().min(1),
  /** ECDSA over SHA-256 of the PAE, DER-encoded, in base64. */
  sig: Base64.min(1),
});

export const DsseEnvelopeSchema = z.strictObject({
  payloadType: z.string().min(1),
  payload: Base64,
  signatures: z.array(DsseSignatureSchema),
});
export type DsseEnvelope = z.infer<typeof DsseEnvelopeSchema>;

/** Why a bundle was kept aside and nothing of it imported. */
export const QUARANTINE_REASONS = [
  'unsigned',
  'bad_signature',
  'untrusted_key',
  'wrong_payload_type',
  'malformed',
] as const;
export const QuarantineReasonSchema = z.enum(QUARANTINE_REASONS);
export type QuarantineReason = z.infer<typeof QuarantineReasonSchema>;

/** A bundle kept aside, whole, with why; nothing of it was imported. */
export const QuarantinedBundleSchema = z.strictObject({
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  /** Where it came from (a file path or an `s3://` URI). */
  origin: z.string().min(1),
  reason: QuarantineReasonSchema,
  detail: z.string(),
  at: z.iso.datetime({ offset: true }),
});
export type QuarantinedBundle = z.infer<typeof QuarantinedBundleSchema>;

/** A publisher's key the consumer trusts (`ralph share trust`). */
export const TrustedKeySchema = z.strictObject({
  keyId: z.string().min(1),
  /** The public key, SubjectPublicKeyInfo DER in base64 (what KMS `GetPublicKey` returns). */
  publicKey: Base64.min(1),
  /** The publishing AWS account, when known (a KMS key ARN names it). */
  account: z
    .string()
    .regex(/^\d{12}$/)
    .optional(),
  addedAt: z.iso.datetime({ offset: true }),
});
export type TrustedKey = z.infer<typeof TrustedKeySchema>;

/** The `detail` of a "Bundle Published" event (source `ralph-cloud.sharing`). */
export const BUNDLE_PUBLISHED = { source: 'ralph-cloud.sharing', detailType: 'Bundle Published' };
export const BundlePublishedDetailSchema = z.strictObject({
  bucket: z.string().min(1),
  key: z.string().min(1),
  /** SHA-256 of the envelope's bytes, hex. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  keyId: z.string().min(1),
});
export type BundlePublishedDetail = z.infer<typeof BundlePublishedDetailSchema>;

/** What receiving one bundle did: imported (with the import's counts), or quarantined. */
export const ReceiveReportSchema = z.strictObject({
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  origin: z.string().min(1),
  status: z.enum(['imported', 'already_present', 'quarantined']),
  keyId: z.string().optional(),
  reason: QuarantineReasonSchema.optional(),
  detail: z.string().optional(),
  added: z.number().int().nonnegative().default(0),
  merged: z.number().int().nonnegative().default(0),
  skipped: z.number().int().nonnegative().default(0),
});
export type ReceiveReport = z.infer<typeof ReceiveReportSchema>;

/** A bundle this data dir or account published (`ralph share list`). */
export const PublishedBundleSchema = z.strictObject({
  /** SHA-256 of the envelope's bytes, hex. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  keyId: z.string().min(1),
  /** Where the envelope was written: a file path or an `s3://` URI. */
  location: z.string().min(1),
  scopes: z.array(RegistryScopeSchema),
  patterns: z.number().int().nonnegative(),
  at: z.iso.datetime({ offset: true }),
});
export type PublishedBundle = z.infer<typeof PublishedBundleSchema>;
