/**
 * `ralph share trust KEYFILE|ARN`: a publisher's public key this data directory accepts
 * bundles from. A KMS key ARN is trusted in the deployed stack, where its public key can be
 * fetched; locally it is refused (exit 2) rather than trusted without its key.
 */
import { localKeyId, publicKeyFromFile } from '../../../lambdas/adapters/sharing/public-key.js';
import { TrustedKeySchema } from '../../../lambdas/core/schemas/sharing.js';
import { parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { refuseEndpoint } from '../learning/learning-session.js';
import type { Output } from '../output.js';
import { localSharing, readNamedFile } from '../sharing/local-sharing.js';

export interface ShareTrustOptions extends BackendOptions {
  /** The publisher's AWS account (12 digits), kept on what its bundles bring. */
  account?: string;
}

export async function shareTrustCommand(
  key: string,
  options: ShareTrustOptions,
  output: Output,
): Promise<number> {
  refuseEndpoint('share trust', options);
  if (key.startsWith('arn:'))
    throw new CliError(
      `${key}: a KMS key ARN is trusted in the deployed stack (the Sharing construct's trusted keys), where its public key is fetched; locally, trust the publisher's public key file (\`ralph share publish\` prints where it is)`,
      EXIT.invalidInput,
    );
  const account =
    options.account === undefined
      ? undefined
      : parseOrThrow(TrustedKeySchema.shape.account, options.account, '--account');
  const publicKey = publicKeyFromFile(await readNamedFile(key, 'key file'), key);
  const keyId = localKeyId(publicKey);
  const { trust } = localSharing(options.dataDir);
  const known = await trust.find(keyId);
  if (known) {
    output.line(`${keyId} is trusted already (since ${known.addedAt})`);
  } else {
    await trust.add({
      keyId,
      publicKey: Buffer.from(publicKey).toString('base64'),
      ...(account === undefined ? {} : { account }),
      addedAt: new Date().toISOString(),
    });
    output.line(`trusted ${keyId}${account ? ` (account ${account})` : ''} from ${key}`);
  }
  output.data({ keyId, account: known?.account ?? account, added: known === undefined });
  return EXIT.ok;
}
