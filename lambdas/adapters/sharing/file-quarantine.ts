/**
 * Refused bundles kept aside in the data directory: each envelope's bytes whole
 * (`<digest>.dsse.json`) beside the record of where it came from and why
 * (`<digest>.json`), so it can be inspected, and nothing of it reaches the registry.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { QuarantinedBundleSchema } from '../../core/schemas/sharing.js';
import type { Quarantine, QuarantinedBundle } from '../../sharing-ports.js';
import { writeWhole } from '../whole-file.js';
import { readJsonFile } from './json-file.js';

const RECORD = /^[0-9a-f]{64}\.json$/;

export class FileQuarantine implements Quarantine {
  constructor(private readonly dir: string) {}

  /** Where a quarantined envelope's bytes are. */
  envelopePath(digest: string): string {
    return join(this.dir, `${digest}.dsse.json`);
  }

  async put(bundle: QuarantinedBundle, envelopeBytes: Uint8Array): Promise<void> {
    const record = QuarantinedBundleSchema.parse(bundle);
    // The bytes first: a record never names an envelope that is not there.
    await writeWhole(this.envelopePath(record.digest), envelopeBytes);
    await writeWhole(
      join(this.dir, `${record.digest}.json`),
      `${JSON.stringify(record, null, 2)}\n`,
    );
  }

  /** Oldest first. */
  async list(): Promise<QuarantinedBundle[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const records = await Promise.all(
      names
        .filter((name) => RECORD.test(name))
        .map((name) =>
          readJsonFile(join(this.dir, name), QuarantinedBundleSchema.optional(), undefined),
        ),
    );
    return records
      .filter((record): record is QuarantinedBundle => record !== undefined)
      .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  }
}
