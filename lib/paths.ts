import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the repository root. Constructs resolve handler entries, the state
 * machine definition and the agent's Docker build context from here, so `cdk synth` and
 * the infra tests work from any working directory.
 */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The npm lockfile: esbuild bundling and the Lambda asset hash are keyed on it. */
export const LOCK_FILE = join(REPO_ROOT, 'package-lock.json');

/** Folder of the Lambda handler modules, one file per function. */
export const HANDLERS_DIR = join(REPO_ROOT, 'lambdas', 'handlers');

/** Folder of the Amazon States Language definitions. */
export const STATE_MACHINES_DIR = join(REPO_ROOT, 'statemachines');

/**
 * Paths kept out of the agent image's build context: dependencies are installed inside
 * the image, local state and build output must never ship, and files the agent never
 * imports would only trigger needless image rebuilds. Same list as `.dockerignore`
 * (a test keeps the two in step).
 */
export const BUILD_CONTEXT_EXCLUDES: readonly string[] = [
  'node_modules',
  'cdk.out',
  'dist',
  '.ralph',
  '.git',
  'coverage',
  'test',
  'docs',
  'bench',
  'lib',
  'cdk.json',
  '**/*.log',
  '**/.DS_Store',
];
