/**
 * Gates of a Node project: the package.json scripts for typechecking, linting, testing and
 * building, run with the package manager its lockfile (or `packageManager` field) names.
 */
import type { DetectedGate, EcosystemGates, RepositoryFiles } from './repository-files.js';

type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** Gate name → the script names that mean it, first found wins; in the order gates run. */
const SCRIPT_GATES: readonly (readonly [string, readonly string[]])[] = [
  ['typecheck', ['typecheck', 'type-check', 'check-types', 'tsc']],
  ['lint', ['lint']],
  ['test', ['test']],
  ['build', ['build']],
];

/** Lockfile → its package manager, the first found wins. */
const LOCKFILES: readonly (readonly [string, PackageManager])[] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

/** What `npm init` writes as the test script: it always fails, so it verifies nothing. */
const NPM_PLACEHOLDER_TEST = /no test specified/;

/** How each package manager runs a tool from node_modules/.bin. */
const EXEC: Readonly<Record<PackageManager, string>> = {
  npm: 'npx',
  pnpm: 'pnpm exec',
  yarn: 'yarn',
  bun: 'bunx',
};

export function nodeGates(files: RepositoryFiles): EcosystemGates | undefined {
  const text = files.manifests['package.json'];
  if (text === undefined) return undefined;
  const notes: string[] = [];
  const manifest = parseManifest(text);
  if (!manifest) {
    notes.push('package.json is not a JSON object: its scripts were not read');
    return { ecosystem: 'node', gates: [], notes };
  }
  const { manager, from } = packageManager(manifest, files.present);
  const gates: DetectedGate[] = [];
  for (const [gate, names] of SCRIPT_GATES) {
    const script = names.find((name) => typeof manifest.scripts[name] === 'string');
    if (script === undefined) continue;
    if (script === 'test' && NPM_PLACEHOLDER_TEST.test(manifest.scripts[script]!)) {
      notes.push('package.json scripts.test is npm\'s placeholder ("no test specified"): skipped');
      continue;
    }
    gates.push({
      name: gate,
      command: manager === 'npm' && script === 'test' ? 'npm test' : `${manager} run ${script}`,
      because: `package.json scripts.${script}; ${manager} from ${from}`,
    });
  }
  if (!gates.some((gate) => gate.name === 'typecheck') && files.present.has('tsconfig.json'))
    gates.unshift({
      name: 'typecheck',
      command: `${EXEC[manager]} tsc --noEmit`,
      because: 'tsconfig.json, and no typecheck script in package.json',
    });
  return { ecosystem: 'node', gates, notes };
}

interface Manifest {
  scripts: Record<string, string | undefined>;
  packageManager?: string;
}

function parseManifest(text: string): Manifest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { scripts, packageManager: field } = value as Record<string, unknown>;
  return {
    scripts:
      typeof scripts === 'object' && scripts !== null && !Array.isArray(scripts)
        ? (scripts as Record<string, string | undefined>)
        : {},
    ...(typeof field === 'string' ? { packageManager: field } : {}),
  };
}

/** package.json's `packageManager` (`pnpm@9.1.0`) first, then the lockfile, else npm. */
function packageManager(
  manifest: Manifest,
  present: ReadonlySet<string>,
): { manager: PackageManager; from: string } {
  const named = manifest.packageManager?.split('@')[0];
  if (named === 'npm' || named === 'pnpm' || named === 'yarn' || named === 'bun')
    return { manager: named, from: 'package.json packageManager' };
  const lockfile = LOCKFILES.find(([name]) => present.has(name));
  return lockfile
    ? { manager: lockfile[1], from: lockfile[0] }
    : { manager: 'npm', from: 'no lockfile (the default)' };
}
