import { describe, expect, it } from 'vitest';
import { planLearning, type SearchPatterns } from '../../lambdas/core/learning/plan-learning.js';
import { renderLearning } from '../../lambdas/core/learning/render-learning.js';
import { DEFAULT_LEARNING_CONFIG } from '../../lambdas/core/schemas/learning-config.js';
import type {
  LearningSnapshot,
  ProjectRule,
  RegistryPattern,
  RunHint,
} from '../../lambdas/core/schemas/learning.js';
import { templates } from '../support/templates.js';

const AT = '2026-11-27T10:00:00.000Z';
const task = { taskId: 'US-002', story: { title: 'Add a cart page', description: 'Shows items' } };

function rule(ruleId: string, overrides: Partial<ProjectRule> = {}): ProjectRule {
  return {
    projectId: 'shop',
    ruleId,
    version: 1,
    category: 'feature',
    scopePattern: 'src/**',
    issue: { class: 'tests', signature: 'x' },
    constraint: `rule ${ruleId}`,
    sourceHints: ['run-0/h2'],
    promotionCount: 1,
    firstSeen: AT,
    lastSeen: AT,
    status: 'active',
    ...overrides,
  };
}

function pattern(patternId: string, overrides: Partial<RegistryPattern> = {}): RegistryPattern {
  return {
    scope: 'org',
    patternId,
    version: 1,
    type: 'error',
    title: `title ${patternId}`,
    body: `body ${patternId}`,
    tags: [],
    uses: 4,
    successes: 3,
    successRate: 0.75,
    trend: [],
    sources: [{ runId: 'run-a', projectId: 'other', iterations: [2], at: AT }],
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

const hint: RunHint = {
  runId: 'run-1',
  hintId: 'h1',
  iteration: 1,
  taskId: 'US-001',
  category: 'feature',
  issue: { class: 'tests', signature: 'x' },
  scopePaths: ['src/a.js'],
  sourceIterations: [1],
  lesson: 'l',
  text: 'Resolved tests: x in src/a.js - l',
  createdAt: AT,
};

const snapshot = (rules: ProjectRule[], patterns: RegistryPattern[] = []): LearningSnapshot => ({
  runId: 'run-1',
  projectId: 'shop',
  takenAt: AT,
  rules,
  patterns,
});

/** Returns the patterns in the order given, as a retriever ranks them. */
const ranked =
  (patterns: RegistryPattern[]): SearchPatterns =>
  (_query, limit) =>
    patterns.slice(0, limit).map((found, index) => ({ pattern: found, score: 10 - index }));

const base = {
  config: DEFAULT_LEARNING_CONFIG,
  runId: 'run-1',
  task,
  taskPaths: [],
  lastError: undefined,
  hints: [hint],
  snapshot: undefined,
  search: undefined,
};

describe('planLearning', () => {
  it('withholds everything from a control task', () => {
    const planned = planLearning({
      ...base,
      config: { ...DEFAULT_LEARNING_CONFIG, control: { share: 0, tasks: ['US-002'] } },
      snapshot: snapshot([rule('r-1')]),
    });
    expect(planned).toEqual({
      category: 'feature',
      control: true,
      hints: [],
      rules: [],
      patterns: [],
    });
  });

  it('carries the active rules of the category, most promoted first, with spares', () => {
    const rules = [
      rule('r-a'),
      rule('r-b', { promotionCount: 3 }),
      rule('r-c', { status: 'deprecated' }),
      rule('r-d', { category: 'docs' }),
    ];
    const planned = planLearning({ ...base, snapshot: snapshot(rules) });
    expect(planned.rules.map((r) => r.ruleId)).toEqual(['r-b', 'r-a']);
    const many = Array.from({ length: 15 }, (_, index) => rule(`r-${index}`));
    expect(planLearning({ ...base, snapshot: snapshot(many) }).rules).toHaveLength(12);
  });

  it('keeps patterns at or above the success-rate floor: top 5, anti-patterns besides, 10 in all', () => {
    const patterns = [
      pattern('weak', { successRate: 0.5 }),
      ...Array.from({ length: 7 }, (_, index) => pattern(`err-${index}`)),
      ...Array.from({ length: 7 }, (_, index) => pattern(`anti-${index}`, { type: 'anti' })),
    ];
    const planned = planLearning({
      ...base,
      snapshot: snapshot([], patterns),
      search: ranked(patterns),
    });
    expect(planned.patterns.map((p) => p.patternId)).toEqual([
      'err-0',
      'err-1',
      'err-2',
      'err-3',
      'err-4',
      'anti-0',
      'anti-1',
      'anti-2',
      'anti-3',
      'anti-4',
    ]);
    expect(planned.patterns[0]?.text).toBe(
      '**title err-0** (75% success over 4 use(s); learned in run-a)\nbody err-0',
    );
  });
});

describe('renderLearning', () => {
  it('renders rules, lessons and patterns, skipping rules whose scope matches no file', () => {
    const planned = planLearning({
      ...base,
      snapshot: snapshot(
        [rule('r-src'), rule('r-gone', { scopePattern: 'legacy/**' })],
        [pattern('err-0')],
      ),
      search: ranked([pattern('err-0')]),
    });
    const rendered = renderLearning(planned, {
      repositoryFiles: ['src/a.js', 'README.md'],
      maxRules: 10,
      templates,
    });
    expect(rendered.text).toContain('## Project rules');
    expect(rendered.text).toContain('- rule r-src');
    expect(rendered.text).not.toContain('r-gone');
    expect(rendered.text).toContain('## Lessons from earlier iterations\n');
    expect(rendered.text).toContain('- Resolved tests: x in src/a.js - l');
    expect(rendered.text).toContain('## Cross-loop patterns');
    expect(rendered.text).toContain('1. **title err-0**');
    expect(rendered.learning).toEqual({
      category: 'feature',
      control: false,
      injected: [
        { kind: 'rule', id: 'r-src' },
        { kind: 'hint', id: 'h1' },
        { kind: 'pattern', id: 'err-0', scope: 'org' },
      ],
      skippedRules: ['r-gone'],
    });
  });

  it('renders nothing for a control task, and says it was one', () => {
    const rendered = renderLearning(
      { category: 'feature', control: true, hints: [], rules: [], patterns: [] },
      { repositoryFiles: [], maxRules: 10, templates },
    );
    expect(rendered).toEqual({
      text: '',
      learning: { category: 'feature', control: true, injected: [], skippedRules: [] },
    });
  });
});
