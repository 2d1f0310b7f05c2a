/** Registry patterns and project rules for tests, valid by their schemas unless overridden. */
import {
  ProjectRuleSchema,
  RegistryPatternSchema,
  type ProjectRule,
  type RegistryPattern,
} from '../../lambdas/core/schemas/learning.js';

/** An error pattern of the organisation, used 4 times with 3 passes, from one run of `shop`. */
export function makeRegistryPattern(overrides: Partial<RegistryPattern> = {}): RegistryPattern {
  return RegistryPatternSchema.parse({
    scope: 'org',
    patternId: 'pat-error-null-check-001',
    version: 1,
    type: 'error',
    title: 'TypeError: Cannot read property <name> of null',
    body: 'Add a null check before the property access',
    category: 'bugfix',
    issue: { class: 'test', signature: 'TypeError: Cannot read property <name> of null' },
    tags: ['typescript', 'null-safety'],
    uses: 4,
    successes: 3,
    successRate: 0.75,
    trend: [{ at: '2026-02-01T10:00:00Z', successRate: 1, uses: 1 }],
    sources: [
      { runId: 'run-a', projectId: 'shop', iterations: [2, 3], at: '2026-02-01T10:00:00Z' },
    ],
    createdAt: '2026-02-01T10:00:00Z',
    lastUsedAt: '2026-02-10T10:00:00Z',
    updatedAt: '2026-02-10T10:00:00Z',
    ...overrides,
  });
}

/** An active bugfix rule of `shop`, promoted once. */
export function makeProjectRule(overrides: Partial<ProjectRule> = {}): ProjectRule {
  return ProjectRuleSchema.parse({
    projectId: 'shop',
    ruleId: 'r-typecheck-ts2304',
    version: 1,
    category: 'bugfix',
    scopePattern: 'src/**',
    issue: { class: 'typecheck', signature: '<file> error TS2304: Cannot find name <name>.' },
    constraint: 'Import every name you use; run the typecheck before committing',
    sourceHints: ['run-a/h3', 'run-a/h5'],
    promotionCount: 1,
    firstSeen: '2026-02-01T10:00:00Z',
    lastSeen: '2026-02-01T10:00:00Z',
    status: 'active',
    ...overrides,
  });
}
