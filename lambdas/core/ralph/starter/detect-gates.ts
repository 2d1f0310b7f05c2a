/**
 * The quality gates `ralph init` proposes for a repository, from its manifests alone: each
 * ecosystem found adds its own, and a Makefile fills in what none of them covers.
 */
import { goGates, makeGates, rustGates } from './compiled-gates.js';
import { nodeGates } from './node-gates.js';
import { pythonGates } from './python-gates.js';
import type { DetectedGate, EcosystemGates, RepositoryFiles } from './repository-files.js';

export interface GateDetection {
  /** In the order they run; names unique (GateSchema's rule). */
  readonly gates: readonly DetectedGate[];
  /** The ecosystems recognised (`node`, `python`, `rust`, `go`, `make`). */
  readonly ecosystems: readonly string[];
  /** What was seen and not used, and why. */
  readonly notes: readonly string[];
}

/**
 * @example
 * detectGates({ manifests: { 'go.mod': 'module x' }, present: new Set() }).gates
 * // [{ name: 'vet', command: 'go vet ./...', ... }, { name: 'test', command: 'go test ./...', ... }]
 */
export function detectGates(files: RepositoryFiles): GateDetection {
  const found = [nodeGates, pythonGates, rustGates, goGates]
    .map((detect) => detect(files))
    .filter((result): result is EcosystemGates => result !== undefined);
  const gates: DetectedGate[] = [];
  const notes = found.flatMap((result) => result.notes);
  const taken = new Set<string>();
  // Two ecosystems in one repository (a web front end beside a Go service) both keep their
  // gates: the later one's clashing names get its ecosystem as a suffix.
  for (const { ecosystem, gates: own } of found)
    for (const gate of own) {
      const name = taken.has(gate.name) ? `${gate.name}-${ecosystem}` : gate.name;
      taken.add(name);
      gates.push({ ...gate, name });
    }
  const make = makeGates(files);
  for (const gate of make?.gates ?? []) {
    if (taken.has(gate.name)) {
      notes.push(`${gate.because}: not used, ${gate.name} is already covered`);
      continue;
    }
    taken.add(gate.name);
    gates.push(gate);
  }
  return {
    gates,
    ecosystems: [...found, ...(make ? [make] : [])].map((result) => result.ecosystem),
    notes,
  };
}
