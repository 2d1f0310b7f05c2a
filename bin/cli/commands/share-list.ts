/**
 * `ralph share list`: what this data directory published, the keys it trusts, the signed
 * bundles its registry's patterns came in (as their provenance says), and what it
 * quarantined.
 */
import type { BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';
import { refuseEndpoint, withLearning } from '../learning/learning-session.js';
import { patternsIn } from '../learning/patterns-commands.js';
import type { Output } from '../output.js';
import { localSharing } from '../sharing/local-sharing.js';
import { importedBundles, shareListLines } from '../sharing/share-render.js';

export async function shareListCommand(options: BackendOptions, output: Output): Promise<number> {
  refuseEndpoint('share list', options);
  const sharing = localSharing(options.dataDir);
  return withLearning('share list', options, async (session) => {
    const listing = {
      published: await sharing.published.list(),
      trusted: await sharing.trust.list(),
      imported: importedBundles(await patternsIn(session, await session.scopes())),
      quarantined: await sharing.quarantine.list(),
    };
    for (const line of shareListLines(listing)) output.line(line);
    output.data(listing);
    return EXIT.ok;
  });
}
