/**
 * Runs one tool on one instance's files in a scratch folder, as the runner's gates run it
 * (`tsc --noEmit`, `eslint .`, `vitest run`, `pytest`), and returns the combined output as a
 * gate keeps it (stdout and stderr together, its last lines).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { OUTPUT_TAIL_LINES, tailLines } from '../../agent/checks/gates.js';
import type { Files, Tool } from './kind.js';

const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'node_modules/.bin');
/** Where the output says the project is: the scratch folder's path would change every run. */
export const PROJECT_DIR = '/home/dev/project';
const TIMEOUT_MS = 120_000;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUnusedLocals: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    types: [],
  },
  include: ['src'],
};

const ESLINT_CONFIG = `import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(js.configs.recommended, ...tseslint.configs.recommended, {
  rules: { eqeqeq: 'error' },
});
`;

const SETUP: Record<Tool, { files: Files; command: string; nodeModules: boolean }> = {
  tsc: {
    files: { 'tsconfig.json': JSON.stringify(TSCONFIG, null, 2) },
    command: `${BIN}/tsc --noEmit`,
    nodeModules: false,
  },
  eslint: {
    files: { 'eslint.config.js': ESLINT_CONFIG },
    command: `${BIN}/eslint .`,
    nodeModules: true,
  },
  vitest: { files: {}, command: `${BIN}/vitest run`, nodeModules: true },
  pytest: { files: {}, command: 'python3 -m pytest -p no:cacheprovider', nodeModules: false },
};

/** The gate output of `tool` on `files` (written in a fresh folder under `scratch`). */
export function runTool(tool: Tool, files: Files, scratch: string): string {
  const dir = mkdtempSync(join(scratch, `${tool}-`));
  const setup = SETUP[tool];
  const all: Files = {
    'package.json': JSON.stringify({ name: 'project', private: true, type: 'module' }),
    ...setup.files,
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  if (setup.nodeModules) symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const run = spawnSync('sh', ['-c', `${setup.command} 2>&1`], {
    cwd: dir,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
  });
  if (run.status === 0) throw new Error(`${tool} passed on ${Object.keys(files).join(', ')}`);
  return tailLines(run.stdout.replaceAll(dir, PROJECT_DIR), OUTPUT_TAIL_LINES, 8_000);
}

const VERSION_COMMAND: Record<Tool, string> = {
  tsc: `${BIN}/tsc --version`,
  eslint: `${BIN}/eslint --version`,
  vitest: `${BIN}/vitest --version`,
  pytest: 'python3 -m pytest --version',
};

/** What `--version` prints, on one line. */
export function toolVersion(tool: Tool): string {
  const run = spawnSync('sh', ['-c', `${VERSION_COMMAND[tool]} 2>&1`], {
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
  });
  return run.stdout.trim().replace(/\s+/g, ' ');
}
