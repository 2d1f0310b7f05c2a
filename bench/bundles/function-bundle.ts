/**
 * One Lambda function bundled as CDK bundles it (lib/bundle-settings.ts: esbuild, minified
 * ESM for node22 with the `require` banner, the AWS SDK inside) into `<outdir>/index.mjs`,
 * with the prompt templates beside it, as in the asset. Shared by `npm run bench` (sizes,
 * import times) and the tests that run the functions as deployed.
 */
import { cp, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_SETTINGS, PROMPT_TEMPLATES_SOURCE } from '../../lib/bundle-settings.js';
import { HANDLERS_DIR, REPO_ROOT } from '../../lib/paths.js';
import { largestParts, type Part } from '../api/bundle-composition.js';

export interface FunctionBundle {
  /** The handler's file name in lambdas/handlers/, without `.ts`. */
  name: string;
  /** `index.mjs`, as the function's handler module. */
  file: string;
  bytes: number;
  /** What it weighs compressed, as in the deployment zip (gzip level 9, for scale). */
  gzipBytes: number;
  /** The source map beside it, when the settings ship one (0 otherwise). */
  mapBytes: number;
  /** Its largest parts, by package. */
  parts: Part[];
}

/** How many of a bundle's largest parts are reported. */
const PARTS_REPORTED = 8;

/** Bundles `lambdas/handlers/<name>.ts` into `outdir`. */
export async function bundleFunction(name: string, outdir: string): Promise<FunctionBundle> {
  const file = join(outdir, 'index.mjs');
  const { metafile } = await build({
    entryPoints: [join(HANDLERS_DIR, `${name}.ts`)],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_SETTINGS.target,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    minify: BUNDLE_SETTINGS.minify,
    sourcemap: BUNDLE_SETTINGS.sourceMap,
    keepNames: BUNDLE_SETTINGS.keepNames,
    logLevel: 'warning',
    metafile: true,
  });
  await cp(join(REPO_ROOT, PROMPT_TEMPLATES_SOURCE), join(outdir, 'templates'), {
    recursive: true,
  });
  const code = await readFile(file);
  return {
    name,
    file,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    mapBytes: await stat(`${file}.map`).then(
      (map) => map.size,
      () => 0,
    ),
    parts: largestParts(entryOutput(metafile, name).inputs, PARTS_REPORTED),
  };
}

/** The metafile's entry for the bundle itself (not a source map). */
function entryOutput(metafile: Metafile, name: string): Metafile['outputs'][string] {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined);
  if (!output) throw new Error(`esbuild reported no bundle for ${name}`);
  return output;
}
