/** How `ralph share` shows published, trusted, imported and quarantined bundles to people. */
import Table from 'cli-table3';
import type { RegistryPattern, SharedProvenance } from '../../../lambdas/core/schemas/learning.js';
import type {
  PublishedBundle,
  ReceiveReport,
  TrustedKey,
} from '../../../lambdas/core/schemas/sharing.js';
import type { QuarantinedBundle } from '../../../lambdas/sharing-ports.js';
import { tableStyle } from '../table-style.js';

/** A digest or key id short enough for a table; `--json` carries them whole. */
const short = (id: string) => id.replace(/([0-9a-f]{16})[0-9a-f]{8,}/, '$1…');

export function publishedLines(bundle: PublishedBundle, publicKeyFile: string): string[] {
  return [
    `published ${bundle.patterns} pattern${bundle.patterns === 1 ? '' : 's'} of ${bundle.scopes.join(', ')}`,
    `  file        ${bundle.location}`,
    `  digest      ${bundle.digest}`,
    `  key id      ${bundle.keyId}`,
    `  public key  ${publicKeyFile} (a consumer runs: ralph share trust ${publicKeyFile})`,
  ];
}

export function receivedLine(report: ReceiveReport, account: string | undefined): string {
  const by = `${report.keyId}${account ? ` (account ${account})` : ''}`;
  const counts = `${report.added} added, ${report.merged} merged, ${report.skipped} skipped`;
  const what = report.status === 'already_present' ? 'already present' : 'imported';
  return `${what}: ${report.origin} (${report.digest}) signed by ${by}: patterns ${counts}${report.detail ? `; ${report.detail}` : ''}`;
}

export function refusalMessage(report: ReceiveReport, keptAt: string): string {
  return `ralph: quarantined ${report.origin} (${report.reason}): ${report.detail}; nothing imported, the bundle is kept whole in ${keptAt}`;
}

/** One imported bundle as the registry tells it: the provenance its patterns carry. */
export interface ImportedBundle extends SharedProvenance {
  patterns: number;
}

/** The bundles the registry's patterns came in signed, with how many patterns each. */
export function importedBundles(patterns: readonly RegistryPattern[]): ImportedBundle[] {
  const byBundle = new Map<string, ImportedBundle>();
  for (const pattern of patterns) {
    const arrivals = new Map(
      pattern.sources.flatMap((source) =>
        source.shared ? [[source.shared.bundle, source.shared]] : [],
      ),
    );
    for (const [bundle, shared] of arrivals) {
      const known = byBundle.get(bundle) ?? { ...shared, patterns: 0 };
      byBundle.set(bundle, { ...known, patterns: known.patterns + 1 });
    }
  }
  return [...byBundle.values()];
}

export interface ShareListing {
  published: readonly PublishedBundle[];
  trusted: readonly TrustedKey[];
  imported: readonly ImportedBundle[];
  quarantined: readonly QuarantinedBundle[];
}

export function shareListLines(listing: ShareListing): string[] {
  return [
    ...section(
      'Published',
      listing.published,
      ['digest', 'key id', 'patterns', 'scopes', 'at', 'file'],
      (b) => [
        short(b.digest),
        short(b.keyId),
        String(b.patterns),
        b.scopes.join(', '),
        b.at,
        b.location,
      ],
    ),
    ...section('Trusted keys', listing.trusted, ['key id', 'account', 'added'], (k) => [
      short(k.keyId),
      k.account ?? '',
      k.addedAt,
    ]),
    ...section('Imported', listing.imported, ['bundle', 'key id', 'account', 'patterns'], (b) => [
      short(b.bundle),
      short(b.keyId),
      b.account ?? '',
      String(b.patterns),
    ]),
    ...section(
      'Quarantined',
      listing.quarantined,
      ['digest', 'reason', 'from', 'at', 'why'],
      (q) => [short(q.digest), q.reason, q.origin, q.at, q.detail],
    ),
  ];
}

function section<T>(
  title: string,
  rows: readonly T[],
  head: string[],
  cells: (row: T) => string[],
): string[] {
  if (rows.length === 0) return [`${title}: none`];
  const table = new Table({ head, style: tableStyle(), wordWrap: true });
  for (const row of rows) table.push(cells(row));
  return [`${title} (${rows.length}):`, table.toString()];
}
