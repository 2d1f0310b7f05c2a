/** The bundles a data directory published (`ralph share list`), in one JSON file. */
import { z } from 'zod';
import { PublishedBundleSchema, type PublishedBundle } from '../../core/schemas/sharing.js';
import { writeWhole } from '../whole-file.js';
import { readJsonFile } from './json-file.js';

const PublishedBundlesSchema = z.array(PublishedBundleSchema);

export class PublishedBundles {
  constructor(private readonly path: string) {}

  /** Oldest first. */
  list(): Promise<PublishedBundle[]> {
    return readJsonFile(this.path, PublishedBundlesSchema, []);
  }

  async add(bundle: PublishedBundle): Promise<void> {
    const published = await this.list();
    await writeWhole(this.path, `${JSON.stringify([...published, bundle], null, 2)}\n`);
  }
}
