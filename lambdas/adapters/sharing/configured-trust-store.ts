/**
 * The TrustStore of a deployed stack: the publishers its configuration names (the Sharing
 * construct's `trustedPublishers`, passed to the import function as TRUSTED_PUBLISHERS),
 * each key's public half read from KMS once (`GetPublicKey`, cross-account: the publisher's
 * key policy lets the organisation read it). Trust changes with a deployment, reviewed like
 * any change to the stack, never at run time: `add` is refused.
 */
import { ConfigurationError } from '../../core/errors.js';
import type { TrustedKey } from '../../core/schemas/sharing.js';
import type { Clock } from '../../ports.js';
import type { TrustStore } from '../../sharing-ports.js';
import type { KmsPublicKeys } from './kms-public-keys.js';
import type { TrustedPublisher } from './trusted-publishers.js';

export interface ConfiguredTrustStoreOptions {
  publishers: readonly TrustedPublisher[];
  publicKeys: KmsPublicKeys;
  /** Stamps `addedAt`: the moment this configuration was read (the function's cold start). */
  clock: Clock;
}

/**
 * @example
 * const trust = new ConfiguredTrustStore({ publishers, publicKeys: new KmsPublicKeys(kms), clock });
 * const key = await trust.find(envelope.signatures[0].keyid);
 */
export class ConfiguredTrustStore implements TrustStore {
  readonly #publishers: readonly TrustedPublisher[];
  readonly #publicKeys: KmsPublicKeys;
  readonly #since: string;

  constructor({ publishers, publicKeys, clock }: ConfiguredTrustStoreOptions) {
    this.#publishers = publishers;
    this.#publicKeys = publicKeys;
    this.#since = clock.now().toISOString();
  }

  /**
   * The same store trusting one account's keys only: what a bundle that account announced
   * is checked with, so that it cannot pass off a bundle under another publisher's name.
   */
  only(account: string): ConfiguredTrustStore {
    return new ConfiguredTrustStore({
      publishers: this.#publishers.filter((publisher) => publisher.account === account),
      publicKeys: this.#publicKeys,
      clock: { now: () => new Date(this.#since) },
    });
  }

  isTrustedAccount(account: string): boolean {
    return this.#publishers.some((publisher) => publisher.account === account);
  }

  async list(): Promise<TrustedKey[]> {
    return Promise.all(this.#publishers.map((publisher) => this.#keyOf(publisher)));
  }

  async find(keyId: string): Promise<TrustedKey | undefined> {
    const publisher = this.#publishers.find((trusted) => trusted.keyArn === keyId);
    return publisher ? this.#keyOf(publisher) : undefined;
  }

  add(key: TrustedKey): Promise<void> {
    return Promise.reject(
      new ConfigurationError(
        `a deployed stack trusts the publishers of its configuration only: add ${key.keyId} to the context ralph:sharingTrustedPublishers and deploy`,
      ),
    );
  }

  async #keyOf(publisher: TrustedPublisher): Promise<TrustedKey> {
    const der = await this.#publicKeys.get(publisher.keyArn);
    return {
      keyId: publisher.keyArn,
      publicKey: Buffer.from(der).toString('base64'),
      account: publisher.account,
      addedAt: this.#since,
    };
  }
}
