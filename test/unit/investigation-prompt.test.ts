import { describe, expect, it } from 'vitest';
import {
  buildAnalysisPrompt,
  buildCorrectionPrompt,
  orderedFrames,
} from '../../lambdas/core/investigate/investigation-prompt.js';
import { GateSchema } from '../../lambdas/core/schemas/config.js';
import type { AnalysisPass } from '../../lambdas/core/schemas/investigation.js';
import { makeErrorGroup } from '../support/error-groups.js';
import { makeGate } from '../support/records.js';
import { templates } from '../support/templates.js';

const group = makeErrorGroup(
  'issue:7',
  "TypeError: Cannot read properties of undefined (reading 'percent')",
);
const gates = [GateSchema.parse({ name: 'test', command: 'node --test' })];
const lowPass: AnalysisPass = {
  pass: 1,
  kind: 'analysis',
  analysis: {
    rootCause: 'checkout passes no discount',
    confidence: 'low',
    reasoning: 'read the caller only',
    filesExamined: ['src/checkout.mjs'],
    patternsDiscovered: [],
    suggestedNextSteps: ['read src/cart.mjs'],
  },
  changedFiles: [],
  agentExitCode: 0,
  durationMs: 5,
};

function analysisPrompt(overrides: Partial<Parameters<typeof buildAnalysisPrompt>[0]> = {}) {
  return buildAnalysisPrompt({
    taskId: 'ERR-abc',
    group,
    pass: 1,
    maxPasses: 2,
    runContext: '',
    branch: 'ralph/fix/abc',
    gates,
    templates,
    ...overrides,
  });
}

describe('Function: buildAnalysisPrompt', () => {
  it('shows the error: title, level, counts, link, detail, tags, frames in-app first', () => {
    // Act
    const prompt = analysisPrompt();

    // Assess
    expect(prompt).toContain('# Ralph investigation ERR-abc, pass 1 of at most 2');
    expect(prompt).toContain(
      "**TypeError: Cannot read properties of undefined (reading 'percent')**",
    );
    expect(prompt).toContain('- Level: error, reported by sentry');
    expect(prompt).toContain('- Where: `total(src/cart.mjs)`');
    expect(prompt).toContain(
      '- Seen 42 time(s) by the sender, 7 user(s) affected, 3 delivery(ies) received',
    );
    expect(prompt).toContain('- Link: https://sentry.example/issues/issue:7/');
    expect(prompt).toContain("Cannot read properties of undefined (reading 'percent')\n```");
    expect(prompt).toContain('- environment: production\n- release: shop@1.4.2');
    const inApp = prompt.indexOf('### Stack: the application');
    const library = prompt.indexOf('### Stack: library frames');
    expect(inApp).toBeGreaterThan(0);
    expect(library).toBeGreaterThan(inApp);
    // Innermost first: the throw, then its caller.
    expect(prompt.indexOf('`src/cart.mjs:3` in `total`')).toBeLessThan(
      prompt.indexOf('`src/checkout.mjs:12` in `checkout`'),
    );
    expect(prompt).toContain('  `return sum - (sum * discount.percent) / 100;`');
    expect(prompt).toContain('`.ralph/analysis.json`');
    expect(prompt).toContain('- `test` (blocking, 600s): `node --test`');
    expect(prompt).not.toContain('## Previous pass');
    expect(prompt).not.toContain('## Context from earlier errors');
  });

  it('carries the run context and the previous pass when there are', () => {
    // Act
    const prompt = analysisPrompt({
      pass: 2,
      runContext: '### Codebase patterns\n- prices are cents',
      previous: lowPass,
    });

    // Assess
    expect(prompt).toContain('## Context from earlier errors in this run');
    expect(prompt).toContain('- prices are cents');
    expect(prompt).toContain('## Previous pass (pass 1, confidence low, no fix)');
    expect(prompt).toContain('- Root cause hypothesis: checkout passes no discount');
    expect(prompt).toContain('- Files it examined: src/checkout.mjs');
    expect(prompt).toContain('- read src/cart.mjs');
  });

  it('says when the previous pass left no readable analysis', () => {
    const { analysis: _analysis, ...bare } = lowPass;
    const prompt = analysisPrompt({
      pass: 2,
      previous: { ...bare, problem: 'the agent wrote no .ralph/analysis.json' },
    });
    expect(prompt).toContain('- Root cause hypothesis: none given');
    expect(prompt).toContain(
      '- Its analysis could not be read: the agent wrote no .ralph/analysis.json',
    );
  });
});

describe('Function: buildCorrectionPrompt', () => {
  it('gives the broken gates output and the analysis, not the gates that failed before', () => {
    // Act
    const prompt = buildCorrectionPrompt({
      taskId: 'ERR-abc',
      group,
      fixed: { ...lowPass, changedFiles: ['src/cart.mjs'] },
      gatesAfter: [
        makeGate({ name: 'test', passed: false, exitCode: 1, outputTail: 'expected 90, got 100' }),
        makeGate({ name: 'changelog', passed: false, exitCode: 1, outputTail: 'no CHANGELOG' }),
      ],
      broken: ['test'],
      branch: 'ralph/fix/abc',
      gates,
      templates,
    });

    // Assess
    expect(prompt).toContain('## Gates the fix broke: test');
    expect(prompt).toContain('gate test failed (exit 1):\nexpected 90, got 100');
    expect(prompt).not.toContain('no CHANGELOG');
    expect(prompt).toContain('- Root cause: checkout passes no discount');
    expect(prompt).toContain('- Files it changed: src/cart.mjs');
  });
});

describe('Function: orderedFrames', () => {
  it('puts in-app frames first, innermost first, and caps the rest', () => {
    const frames = Array.from({ length: 40 }, (_, index) => ({
      filename: `f${index}.js`,
      inApp: index % 2 === 0,
    }));
    const ordered = orderedFrames(frames);
    expect(ordered.inApp.map((frame) => frame.filename).slice(0, 2)).toEqual(['f38.js', 'f36.js']);
    expect(ordered.inApp).toHaveLength(20);
    expect(ordered.other).toHaveLength(10);
    expect(ordered.omitted).toBe(10);
  });
});
