import { describe, expect, it } from 'vitest';
import { agentUsage } from '../../lambdas/core/investigate/agent-usage.js';
import { readAnalysis } from '../../lambdas/core/investigate/analysis-file.js';
import { bestPass, needsAnotherPass } from '../../lambdas/core/investigate/best-pass.js';
import { concludeInvestigation } from '../../lambdas/core/investigate/conclusion.js';
import { brokenGates } from '../../lambdas/core/investigate/gate-comparison.js';
import { runContext } from '../../lambdas/core/investigate/run-context.js';
import type {
  AnalysisPass,
  Confidence,
  InvestigationResult,
} from '../../lambdas/core/schemas/investigation.js';
import { makeGate } from '../support/records.js';

function pass(
  number: number,
  confidence: Confidence | undefined,
  changedFiles: string[] = [],
): AnalysisPass {
  return {
    pass: number,
    kind: 'analysis',
    ...(confidence
      ? {
          analysis: {
            rootCause: `cause ${number}`,
            confidence,
            reasoning: '',
            filesExamined: [],
            patternsDiscovered: [],
            suggestedNextSteps: [],
          },
        }
      : { problem: 'the agent wrote no .ralph/analysis.json' }),
    changedFiles,
    agentExitCode: 0,
    durationMs: 10,
  };
}

describe('Function: bestPass', () => {
  it('keeps a pass with a fix over a more confident one without', () => {
    expect(bestPass([pass(1, 'high'), pass(2, 'low', ['a.ts'])]).pass).toBe(2);
  });

  it('keeps the more confident pass when neither fixed', () => {
    expect(bestPass([pass(1, 'medium'), pass(2, 'low')]).pass).toBe(1);
  });

  it('keeps the later pass on a tie, and ranks a pass without an analysis last', () => {
    expect(bestPass([pass(1, 'low'), pass(2, 'low')]).pass).toBe(2);
    expect(bestPass([pass(1, 'low'), pass(2, undefined)]).pass).toBe(1);
  });
});

describe('Function: needsAnotherPass', () => {
  it('follows a low-confidence pass without a fix, while passes are left', () => {
    expect(needsAnotherPass(pass(1, 'low'), 2)).toBe(true);
    expect(needsAnotherPass(pass(1, undefined), 2)).toBe(true);
    expect(needsAnotherPass(pass(2, 'low'), 2)).toBe(false);
  });

  it('stops after a fix or a confident pass', () => {
    expect(needsAnotherPass(pass(1, 'low', ['a.ts']), 2)).toBe(false);
    expect(needsAnotherPass(pass(1, 'medium'), 2)).toBe(false);
  });
});

describe('Function: brokenGates', () => {
  it('names the blocking gates that passed before and fail after', () => {
    const before = [
      makeGate({ name: 'test', passed: true }),
      makeGate({ name: 'lint', passed: false }),
      makeGate({ name: 'style', passed: true, blocking: false }),
      makeGate({ name: 'typecheck', passed: true }),
    ];
    const after = [
      makeGate({ name: 'test', passed: false }),
      makeGate({ name: 'lint', passed: false }),
      makeGate({ name: 'style', passed: false, blocking: false }),
    ];
    // lint failed before too; style is advisory; typecheck did not run after (a stop).
    expect(brokenGates(before, after)).toEqual(['test', 'typecheck']);
  });

  it('finds nothing broken when the fix keeps every passing gate passing', () => {
    const gates = [makeGate({ name: 'test', passed: true })];
    expect(brokenGates(gates, gates)).toEqual([]);
  });
});

describe('Function: readAnalysis', () => {
  it('reads an analysis, its lists defaulted', () => {
    expect(readAnalysis('{"rootCause":"x is null","confidence":"medium"}')).toEqual({
      analysis: {
        rootCause: 'x is null',
        confidence: 'medium',
        reasoning: '',
        filesExamined: [],
        patternsDiscovered: [],
        suggestedNextSteps: [],
      },
    });
  });

  it('says what is wrong with a missing, malformed or invalid file', () => {
    expect(readAnalysis(undefined)).toEqual({
      problem: 'the agent wrote no .ralph/analysis.json',
    });
    expect(readAnalysis('{oops')).toMatchObject({
      problem: expect.stringMatching(/^\.ralph\/analysis\.json is not valid JSON \(/) as string,
    });
    expect(readAnalysis('{"rootCause":"x","confidence":"sure","extra":1}')).toEqual({
      problem:
        '.ralph/analysis.json is not an analysis: confidence: Invalid option: expected one of "high"|"medium"|"low"; extra: unknown key',
    });
  });
});

describe('Function: agentUsage', () => {
  it('reads the tokens and cost of the stream-json result event', () => {
    const stdout = [
      '{"type":"system","subtype":"init","cwd":"/w"}',
      '{"type":"result","subtype":"success","is_error":false,"result":"done","total_cost_usd":0.12,"usage":{"input_tokens":900,"cache_read_input_tokens":100,"output_tokens":80}}',
    ].join('\n');
    expect(agentUsage(stdout)).toEqual({ tokens: { input: 1000, output: 80 }, costUsd: 0.12 });
  });

  it('reports nothing for a plain agent', () => {
    expect(agentUsage('found it\nfixed it\n')).toEqual({});
  });
});

function investigation(
  patterns: string[],
  files: string[],
  rootCause: string,
  verdict: InvestigationResult['verdict'] = 'no-fix',
): InvestigationResult {
  const chosen = pass(1, 'high');
  return {
    source: 'sentry',
    fingerprint: rootCause,
    verdict,
    summary: '',
    passes: [
      {
        ...chosen,
        analysis: {
          ...(chosen.analysis as NonNullable<AnalysisPass['analysis']>),
          rootCause,
          patternsDiscovered: patterns,
          filesExamined: files,
        },
      },
    ],
    chosenPass: 1,
    gatesBefore: [],
    gatesAfter: [],
    broken: [],
    correction: { attempted: false, succeeded: false },
  };
}

describe('Function: runContext', () => {
  const earlier = [
    {
      taskId: 'ERR-old',
      title: 'Old error',
      result: investigation(['old pattern'], ['src/old.ts'], 'old cause'),
    },
    {
      taskId: 'ERR-new',
      title: 'New error',
      result: investigation(['new pattern'], ['src/new.ts'], 'new cause', 'fix-verified'),
    },
  ];

  it('shows the patterns, files and related errors of the earlier investigations', () => {
    expect(runContext(earlier, 1500)).toBe(
      [
        '### Codebase patterns',
        '- new pattern',
        '- old pattern',
        '',
        '### Files examined',
        '- src/new.ts',
        '- src/old.ts',
        '',
        '### Related errors in this run',
        '- ERR-new "New error": new cause (confidence high); fix-verified',
        '- ERR-old "Old error": old cause (confidence high); no-fix',
      ].join('\n'),
    );
  });

  it('keeps the newest findings within the cap', () => {
    const text = runContext(earlier, 120);
    expect(text.length).toBeLessThanOrEqual(120);
    expect(text).toContain('ERR-new');
    expect(text).not.toContain('old');
  });

  it('is empty with nothing earlier, or no room', () => {
    expect(runContext([], 1500)).toBe('');
    expect(runContext(earlier, 0)).toBe('');
  });
});

describe('Function: concludeInvestigation', () => {
  const group = { source: 'sentry' as const, fingerprint: 'issue:1' };
  const gates = [makeGate({ name: 'test', passed: true })];

  it('says fix-failed-gates for a change without a verified commit', () => {
    const result = concludeInvestigation({
      group,
      passes: [pass(1, 'high', ['a.ts']), { ...pass(2, undefined, ['a.ts']), kind: 'correction' }],
      gatesBefore: gates,
      gatesAfter: [makeGate({ name: 'test', passed: false })],
      broken: ['test'],
      correction: { attempted: true, succeeded: false },
    });
    expect(result.verdict).toBe('fix-failed-gates');
    expect(result.chosenPass).toBe(1);
    expect(result.summary).toBe(
      'the fix broke test and the correction did not mend it: no pull request. Root cause: cause 1 (confidence high)',
    );
  });

  it('says fix-verified with the fix, and no-fix without a change', () => {
    const fixed = concludeInvestigation({
      group,
      passes: [pass(1, 'high', ['a.ts'])],
      gatesBefore: gates,
      gatesAfter: gates,
      broken: [],
      correction: { attempted: false, succeeded: false },
      fix: { branch: 'ralph/fix/abc', commit: 'c0ffee' },
    });
    expect(fixed.verdict).toBe('fix-verified');
    expect(fixed.summary).toMatch(/^a fix: every gate that passed before still passes \(1\)\./);
    const none = concludeInvestigation({
      group,
      passes: [pass(1, 'low'), pass(2, 'medium')],
      gatesBefore: gates,
      gatesAfter: [],
      broken: [],
      correction: { attempted: false, succeeded: false },
    });
    expect(none.verdict).toBe('no-fix');
    expect(none.chosenPass).toBe(2);
    expect(none.summary).toBe('no fix after 2 passes. Root cause: cause 2 (confidence medium)');
  });
});
