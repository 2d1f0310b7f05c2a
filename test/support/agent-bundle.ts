/** The runner bundled the way agent/Dockerfile bundles it, for tests that run it as deployed. */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from '../../lib/paths.js';

/**
 * `entry` bundled as the Dockerfile bundles `agent/main.ts`, written as `<dir>/main.mjs`;
 * with `templates`, the prompt templates are copied beside it as the image copies them.
 */
export async function bundleRunner(
  entry: string,
  dir: string,
  options: { templates?: boolean } = {},
): Promise<string> {
  const outfile = join(dir, 'main.mjs');
  await build({
    entryPoints: [join(REPO_ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    outfile,
    logLevel: 'silent',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  if (options.templates)
    await cp(join(REPO_ROOT, 'lambdas/core/prompts/templates'), join(dir, 'templates'), {
      recursive: true,
    });
  return outfile;
}
