/**
 * `ralph share import FILE|S3URI`: a signed bundle into this data directory's registry,
 * verified before it is read (core/steps/receive-bundle.ts). A bundle that is unsigned,
 * changed, or signed by a key not trusted here is quarantined whole and nothing of it is
 * imported: exit 4, with the reason.
 */
import { s3LocationOf, s3ObjectBytes } from '../../../lambdas/adapters/sharing/s3-object-bytes.js';
import { createS3Client } from '../../../lambdas/adapters/aws-clients.js';
import { receiveBundle } from '../../../lambdas/core/steps/receive-bundle.js';
import { EMULATOR_CREDENTIALS, type LocalStack } from '../../../local/local-stack.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { refuseEndpoint } from '../learning/learning-session.js';
import type { Output } from '../output.js';
import { withSession } from '../session.js';
import { localSharing, readNamedFile } from '../sharing/local-sharing.js';
import { receivedLine, refusalMessage } from '../sharing/share-render.js';

export async function shareImportCommand(
  source: string,
  options: BackendOptions,
  output: Output,
  errors: Output,
): Promise<number> {
  refuseEndpoint('share import', options);
  const fromS3 = source.startsWith('s3://') ? s3LocationOf(source, 'FILE|S3URI') : undefined;
  const fileBytes = fromS3 ? undefined : await readNamedFile(source, 'bundle');
  const sharing = localSharing(options.dataDir);
  return withSession(options, async ({ stack }) => {
    const bytes = fileBytes ?? (await localBucketBytes(stack, source));
    const report = await receiveBundle(
      { learning: stack.learning, ...sharing, clock: stack.deps.clock },
      bytes,
      source,
    );
    output.data(report);
    if (report.status === 'quarantined') {
      errors.line(refusalMessage(report, sharing.quarantine.envelopePath(report.digest)));
      return EXIT.notPossible;
    }
    const signer = await sharing.trust.find(report.keyId ?? '');
    output.line(receivedLine(report, signer?.account));
    return EXIT.ok;
  });
}

/**
 * An `s3://` bundle in the local stack's own bucket (the emulator's); any other bucket is
 * out of this machine's reach: refused, saying how to import it.
 */
async function localBucketBytes(stack: LocalStack, uri: string): Promise<Uint8Array> {
  const location = s3LocationOf(uri, 'FILE|S3URI');
  const { bucketName, s3Endpoint, region } = stack.endpoints;
  if (location.bucket !== bucketName)
    throw new CliError(
      `${uri}: the local stack reads only its own bucket (${bucketName}); copy the bundle here (aws s3 cp ${uri} bundle.dsse.json) and import the file`,
      EXIT.invalidInput,
    );
  const client = createS3Client({
    endpoint: s3Endpoint,
    region,
    credentials: EMULATOR_CREDENTIALS,
  });
  try {
    return await s3ObjectBytes(client, location);
  } finally {
    client.destroy();
  }
}
