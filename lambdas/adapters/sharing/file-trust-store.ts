/** The keys a data directory trusts, in one JSON file (`ralph share trust`). */
import { z } from 'zod';
import { TrustedKeySchema, type TrustedKey } from '../../core/schemas/sharing.js';
import type { TrustStore } from '../../sharing-ports.js';
import { writeWhole } from '../whole-file.js';
import { readJsonFile } from './json-file.js';

const TrustedKeysSchema = z.array(TrustedKeySchema);

export class FileTrustStore implements TrustStore {
  constructor(private readonly path: string) {}

  list(): Promise<TrustedKey[]> {
    return readJsonFile(this.path, TrustedKeysSchema, []);
  }

  async find(keyId: string): Promise<TrustedKey | undefined> {
    return (await this.list()).find((key) => key.keyId === keyId);
  }

  async add(key: TrustedKey): Promise<void> {
    const keys = await this.list();
    if (keys.some((known) => known.keyId === key.keyId)) return;
    await writeWhole(this.path, `${JSON.stringify([...keys, key], null, 2)}\n`);
  }
}
