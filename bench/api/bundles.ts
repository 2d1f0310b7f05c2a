/**
 * The five Run API functions bundled as CDK bundles them (lib/bundle-settings.ts: esbuild,
 * minified ESM for node22 with the `require` banner and a source map, the AWS SDK inside),
 * each into `<dir>/<name>/index.mjs` with the prompt templates beside it, as in the asset.
 */
import { cp, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_SETTINGS, PROMPT_TEMPLATES_SOURCE } from '../../lib/bundle-settings.js';
import { HANDLERS_DIR, REPO_ROOT } from '../../lib/paths.js';
import { largestParts, type Part } from './bundle-composition.js';

/** The API functions' entry files in lambdas/handlers/ (api-environment.ts is their helper). */
export const API_FUNCTIONS = [
  'api-start',
  'api-read',
  'api-artefact',
  'api-control',
  'api-openapi',
] as const;

export interface Bundle {
  name: (typeof API_FUNCTIONS)[number];
  /** `index.mjs`, as the function's handler module. */
  file: string;
  bytes: number;
  /** What it weighs compressed, as in the deployment zip (gzip level 9, for scale). */
  gzipBytes: number;
  /** The source map beside it (shipped too: NODE_OPTIONS=--enable-source-maps). */
  mapBytes: number;
  /** Its largest parts, by package. */
  parts: Part[];
}

/** How many of a bundle's largest parts the bench reports. */
const PARTS_REPORTED = 8;

/** Bundles every API function into `dir`, one after the other. */
export async function bundleApiFunctions(dir: string): Promise<Bundle[]> {
  const bundles: Bundle[] = [];
  for (const name of API_FUNCTIONS) bundles.push(await bundleOne(name, join(dir, name)));
  return bundles;
}

async function bundleOne(name: Bundle['name'], outdir: string): Promise<Bundle> {
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
    mapBytes: (await stat(`${file}.map`)).size,
    parts: largestParts(entryOutput(metafile, name).inputs, PARTS_REPORTED),
  };
}

/** The metafile's entry for the bundle itself (the other output is its source map). */
function entryOutput(metafile: Metafile, name: string): Metafile['outputs'][string] {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined);
  if (!output) throw new Error(`esbuild reported no bundle for ${name}`);
  return output;
}
