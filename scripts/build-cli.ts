/**
 * `npm run build` (which `npm pack` runs first, as `prepack`): the installed `ralph` CLI in
 * dist/. tsc compiles the runtime code file for file (tsconfig.build.json), keeping the
 * source tree's layout, and the files that code reads beside itself are copied to the same
 * places. So every path a module computes from its own `import.meta.url` holds in dist/
 * as it does in the source tree, and stack traces name the files they did.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROMPT_TEMPLATES_SOURCE } from '../lib/bundle-settings.js';
import { REPO_ROOT } from '../lib/paths.js';

const DIST = join(REPO_ROOT, 'dist');

/** What the compiled code reads at run time, and who reads it. */
const ASSETS = [
  'statemachines/run-loop.asl.json', // local/run-loop-definition.ts
  PROMPT_TEMPLATES_SOURCE, // lambdas/adapters/prompt-template-files.ts
  'examples/todo-app', // bin/cli/commands/example.ts
  'examples/investigate', // bin/cli/commands/example-investigate.ts
  'bin/cli/dashboard/assets', // bin/cli/dashboard/page-assets.ts (uPlot: its package, a dependency)
];

rmSync(DIST, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
for (const asset of ASSETS) cpSync(join(REPO_ROOT, asset), join(DIST, asset), { recursive: true });
chmodSync(join(DIST, 'bin', 'ralph.js'), 0o755);
