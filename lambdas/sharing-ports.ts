/**
 * What sharing learning across accounts needs from the world: a signer (KMS deployed, a key
 * file locally), the public keys the consumer trusts, and where refused bundles are kept
 * aside. Apart from ports.ts, which holds the loop's stores.
 */
import type {
  BundlePublishedDetail,
  QuarantinedBundle,
  TrustedKey,
} from './core/schemas/sharing.js';

/** Signs DSSE's pre-authentication encoding with an ECDSA P-256 key (SHA-256, DER). */
export interface BundleSigner {
  /** The id verifiers look the public key up by (a KMS key ARN, or `local:<hex>`). */
  readonly keyId: string;
  sign(message: Uint8Array): Promise<Uint8Array>;
  /** SubjectPublicKeyInfo DER (KMS `GetPublicKey`, fetched once and cached). */
  publicKey(): Promise<Uint8Array>;
}

/** The keys a consumer trusts (`ralph share trust`), by key id. */
export interface TrustStore {
  list(): Promise<TrustedKey[]>;
  find(keyId: string): Promise<TrustedKey | undefined>;
  /** Idempotent: the same key again changes nothing. */
  add(key: TrustedKey): Promise<void>;
}

export type { QuarantinedBundle } from './core/schemas/sharing.js';

export interface Quarantine {
  put(bundle: QuarantinedBundle, envelopeBytes: Uint8Array): Promise<void>;
  list(): Promise<QuarantinedBundle[]>;
}

/** Checks an ECDSA P-256 / SHA-256 signature (DER) against a public key (SPKI DER). */
export interface SignatureCheck {
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
}

/**
 * Tells the organisation a bundle was published ("Bundle Published" on the stack's own
 * default bus, from where a rule forwards it to the consumers' buses).
 */
export interface BundleAnnouncer {
  announce(detail: BundlePublishedDetail): Promise<void>;
}
