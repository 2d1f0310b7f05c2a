/**
 * What a bundle is made of, from esbuild's metafile: the bytes each package (or each of our
 * top folders) contributes to the output, largest first, so a bundle over its target says
 * where to cut.
 */

/** Bytes in the output per input file, as esbuild's metafile gives them. */
export type MetafileInputs = Record<string, { bytesInOutput: number }>;

export interface Part {
  /** A package (`zod`, `@aws-sdk/client-s3`) or one of our folders (`lambdas/core`). */
  owner: string;
  bytes: number;
}

/** A package's name at the start of a path below node_modules/. */
const PACKAGE_NAME = /^((?:@[^/]+\/)?[^/]+)\//;
const NODE_MODULES = 'node_modules/';

/**
 * Who an input belongs to: the innermost package under node_modules, else the first two
 * folders of its path.
 *
 * @example
 * ownerOf('node_modules/@smithy/core/dist-es/index.js') // '@smithy/core'
 * ownerOf('lambdas/core/runs/start-run.ts')             // 'lambdas/core'
 */
export function ownerOf(inputPath: string): string {
  const below = inputPath.lastIndexOf(NODE_MODULES);
  const name =
    below === -1 ? undefined : PACKAGE_NAME.exec(inputPath.slice(below + NODE_MODULES.length));
  return name ? name[1]! : inputPath.split('/').slice(0, 2).join('/');
}

/** The `count` largest owners of a bundle's bytes, largest first (ties by name). */
export function largestParts(inputs: MetafileInputs, count: number): Part[] {
  const bytesByOwner = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const owner = ownerOf(path);
    bytesByOwner.set(owner, (bytesByOwner.get(owner) ?? 0) + bytesInOutput);
  }
  return [...bytesByOwner]
    .map(([owner, bytes]) => ({ owner, bytes }))
    .filter((part) => part.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes || a.owner.localeCompare(b.owner))
    .slice(0, count);
}
