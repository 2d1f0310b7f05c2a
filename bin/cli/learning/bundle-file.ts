/** Reading and writing pattern bundle files (lambdas/core/learning/bundle.ts). */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseBundle, type PatternBundle } from '../../../lambdas/core/learning/bundle.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { exists, writeAtomically } from '../file-writes.js';

export interface ReadBundle {
  bundle: PatternBundle;
  /** `sha256:<hex>` of the file's bytes: each imported source keeps it as its origin. */
  digest: string;
}

/** The whole file, checked before any store is opened: a bad bundle writes nothing. */
export async function readBundleFile(path: string): Promise<ReadBundle> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, EXIT.invalidInput);
  }
  const bundle = parseBundle(bytes.toString('utf8'), path);
  return { bundle, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
}

/** Refused before the store is opened when the file exists and `force` is not given. */
export async function checkBundleTarget(path: string, force: boolean): Promise<void> {
  if (!force && (await exists(path)))
    throw new CliError(`${path} already exists; pass --force to overwrite it`, EXIT.invalidInput);
}

export async function writeBundleFile(path: string, bundle: PatternBundle): Promise<void> {
  await writeAtomically(path, `${JSON.stringify(bundle, null, 2)}\n`);
}
