/**
 * What `ralph init` read from a repository's top directory, for the gate detection to
 * decide from without touching a disk: the few manifests' text, and which other files are
 * there (lockfiles, tsconfig.json).
 */
export interface RepositoryFiles {
  /** The text of the manifests that exist, by file name (`package.json`, `go.mod`, ...). */
  readonly manifests: Readonly<Partial<Record<ManifestName, string>>>;
  /** The names of the other files looked for that exist (`pnpm-lock.yaml`, `uv.lock`, ...). */
  readonly present: ReadonlySet<string>;
}

/** The manifests whose text the detection reads. */
export const MANIFEST_NAMES = [
  'package.json',
  'pyproject.toml',
  'Cargo.toml',
  'go.mod',
  'Makefile',
] as const;
export type ManifestName = (typeof MANIFEST_NAMES)[number];

/** The files whose presence alone says something: lockfiles and tool configs. */
export const MARKER_NAMES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
  'tsconfig.json',
  'uv.lock',
  'poetry.lock',
  'pdm.lock',
] as const;

/** A gate the detection chose, and why, in words a person can check. */
export interface DetectedGate {
  readonly name: string;
  readonly command: string;
  /** `package.json scripts.test`, `Cargo.toml`, `Makefile target test`. */
  readonly because: string;
}

/** One ecosystem's gates, and what it saw but did not use (and why). */
export interface EcosystemGates {
  readonly ecosystem: string;
  readonly gates: readonly DetectedGate[];
  readonly notes: readonly string[];
}
