/**
 * `ralph share publish`: the registry's patterns as a signed bundle (a DSSE envelope) for
 * another data directory or account to import. Locally the signing key is a key file in
 * the data directory, made on first use; its public key is written beside it for consumers.
 */
import { join, resolve } from 'node:path';
import { keyFileSigner, publicKeyPem } from '../../../lambdas/adapters/sharing/key-file-signer.js';
import { writeWhole } from '../../../lambdas/adapters/whole-file.js';
import { bundleOf } from '../../../lambdas/core/learning/bundle.js';
import { sealBundle } from '../../../lambdas/core/steps/seal-bundle.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { checkBundleTarget } from '../learning/bundle-file.js';
import { checkedScope, refuseEndpoint, withLearning } from '../learning/learning-session.js';
import { patternsIn, scopesOf, type ScopeOptions } from '../learning/patterns-commands.js';
import type { Output } from '../output.js';
import { localSharing } from '../sharing/local-sharing.js';
import { publishedLines } from '../sharing/share-render.js';

export interface SharePublishOptions extends ScopeOptions {
  /** A signing key file (PKCS#8 PEM); default the data directory's own, made on first use. */
  key?: string;
  /** Where to write the envelope; default `<data dir>/sharing/published/<digest>.dsse.json`. */
  output?: string;
  force?: boolean;
}

export async function sharePublishCommand(
  options: SharePublishOptions,
  output: Output,
): Promise<number> {
  refuseEndpoint('share publish', options);
  options.scope?.forEach(checkedScope);
  if (options.output) await checkBundleTarget(options.output, options.force === true);
  const sharing = localSharing(options.dataDir);
  return withLearning('share publish', options, async (session) => {
    const scopes = await scopesOf(options, session);
    const patterns = await patternsIn(session, scopes);
    if (patterns.length === 0)
      throw new CliError(
        `nothing to publish: no registry patterns in ${scopes.join(', ')} (\`ralph patterns list\` shows what there is)`,
        EXIT.notPossible,
      );
    const keyPath = options.key ?? sharing.files.signingKey;
    const { signer, created } = await signerAt(keyPath, options.key === undefined);
    const sealed = await sealBundle(
      signer,
      bundleOf({ exportedAt: session.now(), scopes, patterns }),
    );
    const file = resolve(
      options.output ?? join(sharing.files.outbox, `${sealed.digest}.dsse.json`),
    );
    await writeWhole(file, sealed.bytes);
    const publicKeyFile = keyPath.replace(/(\.pem)?$/, '.pub.pem');
    await writeWhole(publicKeyFile, publicKeyPem(await signer.publicKey()));
    const record = {
      digest: sealed.digest,
      keyId: sealed.keyId,
      location: file,
      scopes,
      patterns: patterns.length,
      at: session.now(),
    };
    await sharing.published.add(record);
    if (created) output.line(`made a signing key: ${keyPath} (private: keep it; 0600)`);
    for (const line of publishedLines(record, publicKeyFile)) output.line(line);
    output.data({ ...record, file, publicKeyFile, keyCreated: created });
    return EXIT.ok;
  });
}

/** The key file's signer; a --key that is not there is bad input, the default one is made. */
async function signerAt(path: string, createIfMissing: boolean) {
  try {
    return await keyFileSigner(path, { create: createIfMissing });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CliError(
        `--key ${path}: no such key file (omit --key to use the data directory's own, made on first use)`,
        EXIT.invalidInput,
      );
    throw error;
  }
}
