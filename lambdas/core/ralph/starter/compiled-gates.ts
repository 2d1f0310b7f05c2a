/**
 * Gates of the projects whose toolchain brings its own: Rust (cargo) and Go. Their
 * manifests need no reading: `cargo test` and `go test ./...` test whatever is there.
 */
import type { EcosystemGates, RepositoryFiles } from './repository-files.js';

export function rustGates(files: RepositoryFiles): EcosystemGates | undefined {
  if (files.manifests['Cargo.toml'] === undefined) return undefined;
  return {
    ecosystem: 'rust',
    gates: [
      // Clippy type-checks too: one gate fails on a type error or a lint warning.
      {
        name: 'lint',
        command: 'cargo clippy --all-targets -- -D warnings',
        because: 'Cargo.toml',
      },
      { name: 'test', command: 'cargo test', because: 'Cargo.toml' },
    ],
    notes: [],
  };
}

export function goGates(files: RepositoryFiles): EcosystemGates | undefined {
  if (files.manifests['go.mod'] === undefined) return undefined;
  return {
    ecosystem: 'go',
    gates: [
      { name: 'vet', command: 'go vet ./...', because: 'go.mod' },
      { name: 'test', command: 'go test ./...', because: 'go.mod' },
    ],
    notes: [],
  };
}

/** Makefile targets that name a gate, in the order gates run. */
const MAKE_TARGETS = ['typecheck', 'lint', 'test'] as const;

/** A Makefile's `lint:` and `test:` targets: often the project's own entry point. */
export function makeGates(files: RepositoryFiles): EcosystemGates | undefined {
  const text = files.manifests.Makefile;
  if (text === undefined) return undefined;
  return {
    ecosystem: 'make',
    gates: MAKE_TARGETS.filter((target) => new RegExp(`^${target}\\s*:(?!=)`, 'm').test(text)).map(
      (target) => ({
        name: target,
        command: `make ${target}`,
        because: `Makefile target ${target}`,
      }),
    ),
    notes: [],
  };
}
