import {
  buildAnalysisPrompt,
  buildCorrectionPrompt,
} from '../../lambdas/core/investigate/investigation-prompt.js';
import { makeErrorGroup } from '../support/error-groups.js';
import { cpSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
} from '../../lambdas/core/schemas/control-config.js';
import { IterationSummarySchema } from '../../lambdas/core/schemas/control-history.js';
import { planControl } from '../../lambdas/core/control/plan-control.js';
import { GATE_KINDS } from '../../lambdas/core/control/quality/gate-kind.js';
import {
  remediationGuidance,
  remediationPrompt,
} from '../../lambdas/core/control/quality/remediation.js';
import {
  recoveryGuidance,
  recoveryStrategy,
  renderRecoverySection,
  type RecoveryStrategy,
} from '../../lambdas/core/control/retry/recovery-strategy.js';
import type { FailureClassification } from '../../lambdas/core/control/retry/classify-failure.js';
import { ROLES, roleInstructions } from '../../lambdas/core/control/roles/select-role.js';
import { runTrends } from '../../lambdas/core/control/facts/run-trends.js';
import { stagnationLevel } from '../../lambdas/core/control/stagnation/level.js';
import { RunControlStateSchema } from '../../lambdas/core/schemas/control.js';
import { buildIterationPrompt } from '../../lambdas/core/prompts/iteration-prompt.js';
import { PROMPT_TEMPLATES } from '../../lambdas/core/prompts/catalogue.js';
import { PromptTemplateError } from '../../lambdas/core/prompts/errors.js';
import {
  BUNDLED_TEMPLATES_DIR,
  loadPromptTemplates,
  PROMPT_TEMPLATES_DIR_ENV,
} from '../../lambdas/adapters/prompt-template-files.js';
import { GateResultSchema } from '../../lambdas/core/schemas/gate-result.js';
import { GateSchema } from '../../lambdas/core/schemas/config.js';
import { IterationPlanSchema } from '../../lambdas/core/schemas/plan.js';
import { renderLearning } from '../../lambdas/core/learning/render-learning.js';

const CATALOGUE = Object.keys(PROMPT_TEMPLATES).sort();

/** The error a call throws, so its fields can be asserted. */
function thrown(call: () => unknown): PromptTemplateError {
  try {
    call();
  } catch (error) {
    if (error instanceof PromptTemplateError) return error;
    throw error;
  }
  throw new Error('expected a PromptTemplateError, nothing was thrown');
}

describe('Module: prompt-template-files', () => {
  let scratch: string;
  /** A copy of the shipped templates to break. */
  let copy: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ralph-prompt-templates-'));
  });

  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  const freshCopy = (name: string): string => {
    copy = join(scratch, name);
    cpSync(BUNDLED_TEMPLATES_DIR, copy, { recursive: true });
    return copy;
  };

  describe('the shipped templates', () => {
    it('are exactly the catalogue: no template missing, no file unused', () => {
      // Act
      const files = readdirSync(BUNDLED_TEMPLATES_DIR)
        .filter((file) => file.endsWith('.md'))
        .map((file) => file.slice(0, -'.md'.length))
        .sort();

      // Assess
      expect(files).toEqual(CATALOGUE);
      expect(readdirSync(BUNDLED_TEMPLATES_DIR).filter((file) => !file.endsWith('.md'))).toEqual(
        [],
      );
    });

    it('load, parse and use only the placeholders the code provides', () => {
      expect(loadPromptTemplates(BUNDLED_TEMPLATES_DIR).directory).toBe(BUNDLED_TEMPLATES_DIR);
    });

    it('are each rendered by the code that builds prompts: none is dead', () => {
      // Prepare
      const templates = loadPromptTemplates(BUNDLED_TEMPLATES_DIR);
      expect(templates.rendered.size).toBe(0);
      const NOW = '2025-01-15T10:00:00.000Z';
      const story = {
        id: 'US-002',
        title: 'Badge',
        description: 'D',
        acceptanceCriteria: ['a', 'b'],
      };
      const gate = (name: string, blocking = true) =>
        GateResultSchema.parse({
          name,
          blocking,
          passed: false,
          exitCode: 1,
          timedOut: false,
          durationMs: 900,
          outputTail: 'x',
        });
      const history = Array.from({ length: 5 }, (_, index) =>
        IterationSummarySchema.parse({
          iteration: index + 1,
          taskId: story.id,
          mode: 'implementer',
          outcome: 'gates_failed',
          committed: false,
          meaningfulChange: false,
          endedAt: NOW,
          errorSignature: 'error TS2322: bad',
          filesTouchedUncommitted: ['src/a.ts'],
        }),
      );
      const state = RunControlStateSchema.parse({
        history,
        stagnation: {
          ...stagnationLevel(
            runTrends(history, DEFAULT_LOOP_CONTROL_CONFIG),
            DEFAULT_LOOP_CONTROL_CONFIG,
          ),
          iteration: 5,
        },
        currentTask: { taskId: story.id, startedIteration: 1, startedAt: '2025-01-15T09:00:00Z' },
      });
      const subtasks = [
        { id: 'US-002.1', title: 'A', acceptanceCriteria: ['a'], status: 'open' as const },
        { id: 'US-002.2', title: 'B', acceptanceCriteria: ['b'], status: 'open' as const },
      ];

      // Act
      // Every section kind (prevention in its "narrow" form here, "unstuck" below).
      const control = planControl(
        {
          state,
          story,
          subtasks,
          lastFailure: { outcome: 'gates_failed', gates: [gate('typecheck')], detail: 'x' },
          review: { lines: ['[warnings] lint: 3 warnings (eslint)'], last: true },
          iteration: 6,
          now: NOW,
          templates,
        },
        DEFAULT_LOOP_CONTROL_CONFIG,
      );
      planControl(
        {
          state: RunControlStateSchema.parse({ history }),
          story,
          iteration: 6,
          now: NOW,
          templates,
        },
        LoopControlConfigSchema.parse({ predictor: { weights: { errorRepetition: 0.9 } } }),
      );
      buildIterationPrompt({
        plan: IterationPlanSchema.parse({
          runId: 'r',
          iteration: 6,
          attempt: 2,
          story: { ...story, priority: 1, passes: false, notes: '' },
          iterationsLeft: 3,
          storiesRemaining: 1,
          control,
        }),
        prd: {
          project: 'P',
          branchName: 'b',
          description: '',
          userStories: [{ ...story, priority: 1, passes: false, notes: '' }],
        },
        progressText: '',
        gates: [GateSchema.parse({ name: 'test', command: 'npm test' })],
        templates,
      });
      const group = makeErrorGroup('issue:1', 'TypeError: x is undefined');
      const fixed = {
        pass: 1,
        kind: 'analysis' as const,
        changedFiles: ['src/a.ts'],
        agentExitCode: 0,
        durationMs: 1,
      };
      buildAnalysisPrompt({
        taskId: 'ERR-1',
        group,
        pass: 1,
        maxPasses: 2,
        runContext: '',
        branch: 'ralph/fix/1',
        gates: [],
        templates,
      });
      buildCorrectionPrompt({
        taskId: 'ERR-1',
        group,
        fixed,
        gatesAfter: [],
        broken: ['test'],
        branch: 'ralph/fix/1',
        gates: [],
        templates,
      });
      for (const role of ROLES) roleInstructions(role, templates);
      for (const kind of GATE_KINDS)
        remediationPrompt([gate(kind === 'other' ? 'smoke' : kind)], templates);
      const classifications: FailureClassification[] = [
        {
          kind: 'compilation_error',
          file: 'a.ts',
          line: 1,
          column: 1,
          code: 'TS1',
          message: 'm',
          errorCount: 1,
          evidence: 'e',
        },
        {
          kind: 'test_failure',
          testName: 't',
          file: 'a.test.ts',
          failingTests: ['t'],
          evidence: 'e',
        },
        { kind: 'too_complex', reason: 'timeout', evidence: 'e' },
        { kind: 'missing_context', subject: 'x', evidence: 'e' },
      ];
      renderLearning(
        {
          category: 'feature',
          control: false,
          hints: [{ hintId: 'h1', text: 'Resolved x' }],
          rules: [{ ruleId: 'r-1', text: 'Do y' }],
          patterns: [{ patternId: 'p', scope: 'org', type: 'error', text: 'Fix z' }],
        },
        { repositoryFiles: [], maxRules: 10, templates },
      );
      for (const classification of classifications)
        renderRecoverySection(
          recoveryStrategy(
            classification,
            { story: { ...story, acceptanceCriteria: ['a', 'b', 'c'] } },
            templates,
          ) as RecoveryStrategy,
          templates,
        );

      // Assess
      expect([...templates.rendered].sort()).toEqual(CATALOGUE);
    });

    it('give the exported guidance texts their wording', () => {
      // Prepare
      const templates = loadPromptTemplates(BUNDLED_TEMPLATES_DIR);

      // Act
      const guidance = Object.fromEntries(
        GATE_KINDS.map((kind) => [kind, templates.render(`remediation-${kind}`, {})]),
      );

      // Assess
      expect(remediationGuidance(templates)).toEqual(guidance);
      expect(recoveryGuidance(templates).decompose(3)).toBe(
        'Work on subtask 3 ONLY. Do not consider other subtasks.',
      );
      expect(recoveryGuidance(templates).isolatedFix).toBe(
        'Fix ONLY this compilation error, make no other changes',
      );
    });
  });

  describe('Function: loadPromptTemplates', () => {
    it('names the missing template', () => {
      // Prepare
      const directory = freshCopy('missing');
      unlinkSync(join(directory, 'role-debugger.md'));

      // Act
      const error = thrown(() => loadPromptTemplates(directory));

      // Assess
      expect(error.template).toBe('role-debugger');
      expect(error.message).toBe(
        `prompt template "role-debugger": missing template file in ${directory}: role-debugger.md`,
      );
    });

    it('names every missing template at once', () => {
      // Prepare
      const directory = freshCopy('missing-two');
      unlinkSync(join(directory, 'section-role.md'));
      unlinkSync(join(directory, 'iteration.md'));

      // Act
      const error = thrown(() => loadPromptTemplates(directory));

      // Assess
      expect(error.message).toContain('missing template files');
      expect(error.message).toContain('iteration.md, section-role.md');
    });

    it('names a template file no code renders', () => {
      // Prepare
      const directory = freshCopy('unused');
      writeFileSync(join(directory, 'section-unused.md'), '## Unused\n\n{{findings}}\n');

      // Act
      const error = thrown(() => loadPromptTemplates(directory));

      // Assess
      expect(error.template).toBe('section-unused');
      expect(error.message).toContain('no code renders');
      expect(error.message).toContain('section-unused.md');
      expect(error.message).toContain('PROMPT_TEMPLATES in lambdas/core/prompts/catalogue.ts');
    });

    it('ignores files that are not templates', () => {
      // Prepare
      const directory = freshCopy('other-files');
      writeFileSync(join(directory, 'README.txt'), 'notes {{about}} the prompts');

      // Act
      const templates = loadPromptTemplates(directory);

      // Assess
      expect(templates.render('role-tester', {})).toMatch(/^You are the TESTER/);
    });

    it('names the template and the placeholder the code does not provide', () => {
      // Prepare
      const directory = freshCopy('unknown-placeholder');
      writeFileSync(
        join(directory, 'section-time_budget.md'),
        '## Budget\n\n{{minutes}} {{hours}}\n',
      );

      // Act
      const error = thrown(() => loadPromptTemplates(directory));

      // Assess
      expect(error.template).toBe('section-time_budget');
      expect(error.placeholder).toBe('hours');
      expect(error.message).toBe(
        'prompt template "section-time_budget": unknown placeholder {{hours}}: the code provides {{minutes}}, {{iterations}}',
      );
    });

    it('says when a template takes no placeholder at all', () => {
      // Prepare
      const directory = freshCopy('no-placeholders');
      writeFileSync(join(directory, 'role-planner.md'), 'Plan {{storyId}}.\n');

      // Act
      const error = thrown(() => loadPromptTemplates(directory));

      // Assess
      expect(error.message).toContain(
        'unknown placeholder {{storyId}}: the code provides no values',
      );
    });

    it('names the template holding a syntax error', () => {
      // Prepare
      const directory = freshCopy('syntax');
      writeFileSync(join(directory, 'iteration.md'), '# {{iteration}}\n{{#gates}}\nno end\n');

      // Act
      const error = thrown(() => loadPromptTemplates(directory));

      // Assess
      expect(error.message).toBe(
        'prompt template "iteration": {{#gates}} on line 2 is never closed',
      );
    });

    it('says which directory it cannot read', () => {
      // Act
      const error = thrown(() => loadPromptTemplates(join(scratch, 'nowhere')));

      // Assess
      expect(error.message).toContain(
        `cannot read the templates directory ${join(scratch, 'nowhere')}`,
      );
      expect(error.cause).toBeDefined();
    });

    it('renders an edited template, without a rebuild', () => {
      // Prepare
      const directory = freshCopy('edited');
      writeFileSync(
        join(directory, 'section-role.md'),
        '## Act as the {{role}}\n\n{{instructions}}\n',
      );

      // Act
      const text = loadPromptTemplates(directory).render('section-role', {
        role: 'tester',
        instructions: 'Test it.',
      });

      // Assess
      expect(text).toBe('## Act as the tester\n\nTest it.');
    });
  });

  describe('Function: promptTemplates', () => {
    it('loads once, from the shipped directory', async () => {
      // Prepare
      vi.stubEnv(PROMPT_TEMPLATES_DIR_ENV, '');
      const module = await import('../../lambdas/adapters/prompt-template-files.js');

      // Act
      const first = module.promptTemplates();

      // Assess
      expect(first.directory).toBe(module.BUNDLED_TEMPLATES_DIR);
      expect(module.promptTemplates()).toBe(first);
    });

    it(`loads from $${PROMPT_TEMPLATES_DIR_ENV} when it is set, and the prompt code uses it`, async () => {
      // Prepare
      const directory = freshCopy('from-env');
      writeFileSync(join(directory, 'role-debugger.md'), 'You are the DEBUGGER. Edited.\n');
      vi.stubEnv(PROMPT_TEMPLATES_DIR_ENV, directory);
      const module = await import('../../lambdas/adapters/prompt-template-files.js');
      const roles = await import('../../lambdas/core/control/roles/select-role.js');

      // Act
      const text = roles.roleInstructions('debugger', module.promptTemplates());

      // Assess
      expect(module.promptTemplates().directory).toBe(directory);
      expect(text).toBe('You are the DEBUGGER. Edited.');
    });

    it(`fails loudly when $${PROMPT_TEMPLATES_DIR_ENV} holds broken templates`, async () => {
      // Prepare
      const directory = freshCopy('from-env-broken');
      unlinkSync(join(directory, 'role-architect.md'));
      vi.stubEnv(PROMPT_TEMPLATES_DIR_ENV, directory);
      const module = await import('../../lambdas/adapters/prompt-template-files.js');

      // Act
      const call = () => module.promptTemplates();

      // Assess
      expect(call).toThrow('missing template file in');
      expect(call).toThrow('role-architect.md');
    });
  });
});
