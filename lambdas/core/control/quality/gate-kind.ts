/**
 * What a quality gate checks, guessed from its configured name: the runner knows gates by
 * name only (`typecheck`, `test`, `lint`...). A name can be mapped explicitly when the
 * guess is wrong.
 */
import { z } from 'zod';

export const GATE_KINDS = ['typecheck', 'tests', 'lint', 'security', 'other'] as const;
export const GateKindSchema = z.enum(GATE_KINDS);
export type GateKind = z.infer<typeof GateKindSchema>;

/** Words of a gate name, checked in this order: `test:types` is a typecheck. */
const KIND_WORDS: readonly [Exclude<GateKind, 'other'>, RegExp][] = [
  ['security', /^(security|audit|snyk|semgrep|bandit|trivy|gitleaks|secrets?|sast|vuln\w*|osv)$/],
  ['typecheck', /^(typecheck|typechecks|types|type|tsc|mypy|pyright|compile|build|check)$/],
  [
    'lint',
    /^(lint|lints|linter|eslint|clippy|ruff|flake8|pylint|biome|prettier|format|fmt|golangci|knip|deadcode|dead|unused)$/,
  ],
  ['tests', /^(test|tests|spec|specs|unit|integration|e2e|vitest|jest|pytest|mocha)$/],
];

/**
 * The gate's kind: an explicit mapping first, else the first kind one of its name's words
 * (split on anything not a letter or digit, and on camelCase) names.
 *
 * @example
 * gateKind('test:types') // 'typecheck'
 * gateKind('npm audit') // 'security'
 */
export function gateKind(
  name: string,
  explicit: Readonly<Record<string, GateKind>> = {},
): GateKind {
  const mapped = explicit[name];
  if (mapped) return mapped;
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (const [kind, pattern] of KIND_WORDS)
    if (words.some((word) => pattern.test(word))) return kind;
  return 'other';
}
