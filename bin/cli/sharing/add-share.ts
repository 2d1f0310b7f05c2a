/**
 * `ralph share …`: registry patterns shared between data directories (locally) or accounts
 * (deployed) as signed bundles: publish, trust a publisher's key, import, list.
 */
import type { Command } from 'commander';
import { shareImportCommand } from '../commands/share-import.js';
import { sharePublishCommand, type SharePublishOptions } from '../commands/share-publish.js';
import { shareListCommand } from '../commands/share-list.js';
import { shareTrustCommand } from '../commands/share-trust.js';
import { endpointOption, type CommandContext } from '../command-context.js';
import { collect } from '../option-values.js';
import { createOutput } from '../output.js';

const LOCAL_ONLY = ' (local data directory only: --endpoint is refused)';

export function addShare(program: Command, context: CommandContext): void {
  const share = program
    .command('share')
    .description(
      'share registry patterns with another data directory or account as signed bundles (DSSE, ECDSA P-256): publish, trust, import, list',
    );
  const { setExit, globals, out } = context;
  share
    .command('publish')
    .description(
      `sign the registry's patterns into a bundle; the first publish makes this data directory's signing key${LOCAL_ONLY}`,
    )
    .option('--scope <scope>', 'org or project:<id> (repeatable) (default: every scope)', collect)
    .option(
      '--key <file>',
      "a signing key file (PKCS#8 PEM, P-256) (default: the data directory's own)",
    )
    .option(
      '-o, --output <file>',
      'where to write the bundle (default: <data dir>/sharing/published/<digest>.dsse.json)',
    )
    .option('--force', 'overwrite --output if it exists', false)
    .addOption(endpointOption())
    .action(async (options: Omit<SharePublishOptions, 'dataDir'>) => {
      setExit(await sharePublishCommand({ ...globals(), ...options }, out()));
    });
  share
    .command('trust')
    .argument(
      '<key>',
      "the publisher's public key file (PEM or SPKI DER; `share publish` prints it), or its key file; a KMS key ARN is trusted in the deployed stack only",
    )
    .description(`accept bundles signed by this key${LOCAL_ONLY}`)
    .option(
      '--account <id>',
      "the publisher's AWS account (12 digits), kept on what its bundles bring",
    )
    .addOption(endpointOption())
    .action(async (key: string, options: { account?: string; endpoint?: string }) => {
      setExit(await shareTrustCommand(key, { ...globals(), ...options }, out()));
    });
  share
    .command('import')
    .argument('<bundle>', "a bundle file, or an s3:// URI in the local stack's bucket")
    .description(
      `verify a signed bundle, then import its patterns with their provenance; a bundle unsigned, changed or signed by a key not trusted is quarantined whole and nothing imported (exit 4)${LOCAL_ONLY}`,
    )
    .addOption(endpointOption())
    .action(async (bundle: string, options: { endpoint?: string }) => {
      const globalOptions = globals();
      setExit(
        await shareImportCommand(
          bundle,
          { ...globalOptions, ...options },
          out(),
          createOutput(globalOptions.json === true, process.stderr),
        ),
      );
    });
  share
    .command('list')
    .description(`published bundles, trusted keys, imported and quarantined bundles${LOCAL_ONLY}`)
    .addOption(endpointOption())
    .action(async (options: { endpoint?: string }) => {
      setExit(await shareListCommand({ ...globals(), ...options }, out()));
    });
}
