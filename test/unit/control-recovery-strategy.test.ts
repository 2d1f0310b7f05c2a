import { describe, expect, it } from 'vitest';
import {
  recoveryGuidance,
  RecoveryStrategySchema,
  recoveryStrategy,
  renderRecoverySection,
  type RecoveryStrategy,
} from '../../lambdas/core/control/retry/recovery-strategy.js';
import { type FailureClassification } from '../../lambdas/core/control/retry/classify-failure.js';
import type { Subtask } from '../../lambdas/core/schemas/task.js';
import { templates } from '../support/templates.js';

const GUIDANCE = recoveryGuidance(templates);

const story = {
  id: 'US-002',
  title: 'Filter tasks by priority',
  description: 'Add a filter.',
  acceptanceCriteria: ['Add priority column', 'Show filter dropdown', 'Typecheck passes'],
};
const compile: FailureClassification = {
  kind: 'compilation_error',
  file: 'src/cart/total.ts',
  line: 12,
  column: 5,
  code: 'TS2322',
  message: "Type 'string' is not assignable to type 'number'.",
  errorCount: 1,
  evidence:
    "src/cart/total.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
};
const tooComplex: FailureClassification = {
  kind: 'too_complex',
  reason: 'timeout',
  evidence: 'the agent ran out of time',
};
const done = 'complete';
const sub = (n: number, status: Subtask['status'] = 'open'): Subtask => ({
  id: `US-002.${n}`,
  title: `Part ${n}`,
  acceptanceCriteria: [`Part ${n} works`],
  status,
});

describe('Function: recoveryStrategy', () => {
  it("isolates a compilation error with the document's guidance", () => {
    expect(recoveryStrategy(compile, { story }, templates)).toEqual({
      kind: 'isolated_fix',
      focusFile: 'src/cart/total.ts',
      errorLine: 12,
      error: "TS2322: Type 'string' is not assignable to type 'number'.",
      guidance: 'Fix ONLY this compilation error, make no other changes',
      why: `compilation failed: ${compile.evidence}`,
    });
  });

  it('uses the bare message when the compiler gave no code', () => {
    const strategy = recoveryStrategy(
      { ...compile, code: null, file: null, line: null },
      { story },
      templates,
    );
    expect(strategy).toMatchObject({ focusFile: null, errorLine: null, error: compile.message });
  });

  it('puts the failing test first', () => {
    const failure: FailureClassification = {
      kind: 'test_failure',
      testName: 'cart > computes the total',
      file: 'test/unit/cart.test.ts',
      failingTests: ['cart > computes the total'],
      evidence: '× cart > computes the total',
    };
    expect(recoveryStrategy(failure, { story }, templates)).toEqual({
      kind: 'test_first',
      failingTest: 'cart > computes the total',
      file: 'test/unit/cart.test.ts',
      guidance:
        'Read the failing test, understand what it expects, then modify ONLY the implementation to pass it',
      why: 'a test failed: × cart > computes the total',
    });
  });

  it('decomposes a story that is too complex and focuses on subtask 1', () => {
    // Act
    const strategy = recoveryStrategy(tooComplex, { story }, templates);

    // Assess
    expect(strategy).toMatchObject({
      kind: 'decompose',
      focusSubtaskId: 'US-002.1',
      guidance: 'Work on subtask 1 ONLY. Do not consider other subtasks.',
      why: 'too complex (the agent ran out of time); split by acceptance criteria',
    });
    if (strategy?.kind !== 'decompose') throw new Error('expected decompose');
    expect(strategy.subtasks.map((s) => s.id)).toEqual(['US-002.1', 'US-002.2']);
    expect(RecoveryStrategySchema.parse(strategy)).toEqual(strategy);
  });

  it('continues an existing decomposition at its next open subtask', () => {
    const subtasks = [sub(1, done), sub(2), sub(3)];
    expect(recoveryStrategy(tooComplex, { story, subtasks }, templates)).toMatchObject({
      kind: 'decompose',
      subtasks,
      focusSubtaskId: 'US-002.2',
      guidance: 'Work on subtask 2 ONLY. Do not consider other subtasks.',
    });
  });

  it('decomposes afresh when every existing subtask is complete', () => {
    const strategy = recoveryStrategy(
      tooComplex,
      {
        story,
        subtasks: [sub(1, done), sub(2, done)],
      },
      templates,
    );
    expect(strategy).toMatchObject({ kind: 'decompose', focusSubtaskId: 'US-002.1' });
    if (strategy?.kind === 'decompose')
      expect(strategy.subtasks[0]?.title).toBe('Add priority column');
  });

  it('gathers context when a too-complex story cannot be decomposed', () => {
    const single = { ...story, acceptanceCriteria: ['Filter works', 'Typecheck passes'] };
    const strategy = recoveryStrategy(tooComplex, { story: single }, templates);
    expect(strategy).toMatchObject({ kind: 'gather_context', guidance: GUIDANCE.gatherContext });
    expect(strategy?.why).toContain('US-002 has 1 acceptance criterion beyond the gates');
  });

  it("gathers context on the missing subject with the document's three queries", () => {
    // Act
    const strategy = recoveryStrategy(
      {
        kind: 'missing_context',
        subject: './db/client.js',
        evidence: "Cannot find module './db/client.js'",
      },
      { story },
      templates,
    );

    // Assess
    expect(strategy).toMatchObject({
      kind: 'gather_context',
      guidance: 'Gather context FIRST, then plan implementation',
    });
    if (strategy?.kind !== 'gather_context') throw new Error('expected gather_context');
    expect(strategy.queries.map((q) => q.kind)).toEqual([
      'get_call_graph',
      'find_references',
      'get_dependencies',
    ]);
    expect(strategy.queries[1]).toMatchObject({ target: './db/client.js' });
    expect(strategy.queries[1]?.instruction).toContain('`./db/client.js`');
  });

  it('has no strategy for an unknown failure', () => {
    expect(
      recoveryStrategy({ kind: 'unknown', evidence: 'exit 3' }, { story }, templates),
    ).toBeNull();
  });
});

describe('Function: renderRecoverySection', () => {
  it('renders an isolated fix with file, line, error and the guidance in bold', () => {
    const strategy = recoveryStrategy(compile, { story }, templates) as RecoveryStrategy;
    expect(renderRecoverySection(strategy, templates)).toBe(
      [
        '## Recovery: fix one compilation error',
        '',
        `Why: compilation failed: ${compile.evidence}.`,
        '',
        '- File: `src/cart/total.ts`, line 12',
        "- Error: `TS2322: Type 'string' is not assignable to type 'number'.`",
        '',
        '**Fix ONLY this compilation error, make no other changes**',
        '',
      ].join('\n'),
    );
  });

  it('renders the failing test, or how to find it', () => {
    const named: RecoveryStrategy = {
      kind: 'test_first',
      failingTest: 'adds `a`',
      file: 'a.test.ts',
      guidance: GUIDANCE.testFirst,
      why: 'x',
    };
    expect(renderRecoverySection(named, templates)).toContain(
      '- Failing test: `` adds `a` ``\n- Test file: `a.test.ts`',
    );
    expect(renderRecoverySection({ ...named, failingTest: null, file: null }, templates)).toContain(
      'Run the tests to find the failing one',
    );
  });

  it('lists the subtasks, marks the one to work on with its criteria and the ones done', () => {
    const strategy: RecoveryStrategy = {
      kind: 'decompose',
      subtasks: [sub(1, done), sub(2), sub(3)],
      focusSubtaskId: 'US-002.2',
      guidance: GUIDANCE.decompose(2),
      why: 'too complex',
    };
    const text = renderRecoverySection(strategy, templates);
    expect(text).toContain(
      '1. US-002.1: Part 1 (done)\n2. **US-002.2: Part 2** ← this one\n   - [ ] Part 2 works\n3. US-002.3: Part 3\n',
    );
    expect(text).toContain('**Work on subtask 2 ONLY. Do not consider other subtasks.**');
    expect(text).not.toContain('Part 3 works');
  });

  it('numbers the context queries', () => {
    const strategy = recoveryStrategy(
      { kind: 'missing_context', subject: null, evidence: 'ENOENT' },
      { story },
      templates,
    ) as RecoveryStrategy;
    const text = renderRecoverySection(strategy, templates);
    expect(text).toMatch(/^## Recovery: gather context first\n/);
    expect(text).toContain('\n1. Follow the calls');
    expect(text).toContain('\n3. Read the project manifest');
  });
});
