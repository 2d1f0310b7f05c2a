/**
 * Public keys of KMS keys, each fetched once (`GetPublicKey`) and kept for the life of the
 * container: a key's public half never changes, and KMS meters and throttles every call.
 */
import { GetPublicKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import { RalphError } from '../../core/errors.js';
import { toKmsError } from './kms-errors.js';

/** What signing shared bundles needs of a key: ECDSA on the P-256 curve. */
const KEY_SPEC = 'ECC_NIST_P256';

/**
 * @example
 * const keys = new KmsPublicKeys(createKmsClient());
 * const der = await keys.get('arn:aws:kms:eu-west-1:111122223333:key/...');
 */
export class KmsPublicKeys {
  readonly #client: KMSClient;
  readonly #cache = new Map<string, Promise<Uint8Array>>();

  constructor(client: KMSClient) {
    this.#client = client;
  }

  /** SubjectPublicKeyInfo DER. A failed fetch is not kept: the next call asks again. */
  get(keyArn: string): Promise<Uint8Array> {
    const cached = this.#cache.get(keyArn);
    if (cached) return cached;
    const fetched = this.#fetch(keyArn);
    this.#cache.set(keyArn, fetched);
    fetched.catch(() => this.#cache.delete(keyArn));
    return fetched;
  }

  async #fetch(keyArn: string): Promise<Uint8Array> {
    const answer = await this.#client
      .send(new GetPublicKeyCommand({ KeyId: keyArn }))
      .catch((error: unknown) => {
        throw toKmsError(error, `KMS GetPublicKey of ${keyArn}`);
      });
    if (answer.KeySpec !== KEY_SPEC || answer.KeyUsage !== 'SIGN_VERIFY' || !answer.PublicKey)
      throw new RalphError(
        `KMS key ${keyArn} is ${answer.KeySpec ?? 'of no spec'} for ${answer.KeyUsage ?? 'no usage'}: bundles are signed with an ${KEY_SPEC} SIGN_VERIFY key`,
        { code: 'KMS_KEY_UNSUITABLE' },
      );
    return answer.PublicKey;
  }
}
