/**
 * BundleSigner over an asymmetric KMS key (ECC_NIST_P256, SIGN_VERIFY). KMS signs at most
 * 4096 bytes of raw message, and a bundle's pre-authentication encoding is usually larger,
 * so the signer hashes the message itself (SHA-256) and asks KMS to sign that digest
 * (`MessageType: 'DIGEST'`): KMS then skips its own hashing, and the signature is exactly
 * ECDSA-SHA-256 over the message, which node:crypto verifies over the message with SHA-256.
 */
import { createHash } from 'node:crypto';
import { SignCommand, type KMSClient } from '@aws-sdk/client-kms';
import { RalphError } from '../../core/errors.js';
import type { BundleSigner } from '../../sharing-ports.js';
import { toKmsError } from './kms-errors.js';
import { KmsPublicKeys } from './kms-public-keys.js';

export interface KmsBundleSignerOptions {
  /** Built by `createKmsClient` (timeouts, bounded retries with backoff). */
  client: KMSClient;
  /** The signing key's ARN; it is also the envelope signature's `keyid`. */
  keyArn: string;
  /** Shared with a trust store on the same client, so each key is fetched once. @default a cache of its own */
  publicKeys?: KmsPublicKeys;
}

/**
 * @example
 * const signer = new KmsBundleSigner({ client: createKmsClient(), keyArn });
 * const sig = await signer.sign(pae); // DER, verifiable with signer.publicKey()
 */
export class KmsBundleSigner implements BundleSigner {
  readonly keyId: string;
  readonly #client: KMSClient;
  readonly #publicKeys: KmsPublicKeys;

  constructor({ client, keyArn, publicKeys }: KmsBundleSignerOptions) {
    this.keyId = keyArn;
    this.#client = client;
    this.#publicKeys = publicKeys ?? new KmsPublicKeys(client);
  }

  /** ECDSA P-256 over SHA-256 of `message`, DER-encoded. */
  async sign(message: Uint8Array): Promise<Uint8Array> {
    const digest = createHash('sha256').update(message).digest();
    const answer = await this.#client
      .send(
        new SignCommand({
          KeyId: this.keyId,
          Message: digest,
          MessageType: 'DIGEST',
          SigningAlgorithm: 'ECDSA_SHA_256',
        }),
      )
      .catch((error: unknown) => {
        throw toKmsError(error, `KMS Sign with ${this.keyId}`);
      });
    if (!answer.Signature)
      throw new RalphError(`KMS Sign with ${this.keyId} answered no signature`, {
        code: 'KMS_ERROR',
      });
    return answer.Signature;
  }

  publicKey(): Promise<Uint8Array> {
    return this.#publicKeys.get(this.keyId);
  }
}
