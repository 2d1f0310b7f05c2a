import { describe, expect, it } from 'vitest';
import { codeBlock, inlineCode } from '../../lambdas/core/control/quality/markdown.js';
import { gateKind } from '../../lambdas/core/control/quality/gate-kind.js';
import {
  remediationGuidance,
  remediationPrompt,
  remediationSection,
} from '../../lambdas/core/control/quality/remediation.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';
import { templates } from '../support/templates.js';

const REMEDIATION_GUIDANCE = remediationGuidance(templates);

const gate = (name: string, overrides: Partial<GateResult> = {}): GateResult => ({
  name,
  blocking: true,
  passed: false,
  exitCode: 2,
  timedOut: false,
  durationMs: 4200,
  outputTail: "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
  ...overrides,
});

describe('Function: gateKind', () => {
  it.each([
    ['typecheck', 'typecheck'],
    ['tsc', 'typecheck'],
    ['type-check', 'typecheck'],
    ['test:types', 'typecheck'],
    ['cargo check', 'typecheck'],
    ['test', 'tests'],
    ['unitTests', 'tests'],
    ['npm test', 'tests'],
    ['pytest', 'tests'],
    ['lint', 'lint'],
    ['eslint', 'lint'],
    ['clippy', 'lint'],
    ['no_dead_code', 'lint'],
    ['security_clean', 'security'],
    ['npm audit', 'security'],
    ['gitleaks', 'security'],
    ['docs', 'other'],
    ['smoke', 'other'],
  ])('%s is %s', (name, kind) => {
    expect(gateKind(name)).toBe(kind);
  });

  it('takes an explicit mapping first', () => {
    expect(gateKind('test', { test: 'security' })).toBe('security');
  });
});

describe('Function: inlineCode and codeBlock', () => {
  it('fence text holding backticks with longer runs', () => {
    expect(inlineCode('plain')).toBe('`plain`');
    expect(inlineCode('a `b` c')).toBe('`` a `b` c ``');
    expect(codeBlock('x\n```\ny\n')).toBe('````\nx\n```\ny\n````');
    expect(codeBlock('x')).toBe('```\nx\n```');
  });
});

describe('Function: remediationSection', () => {
  it('is empty for a passing gate', () => {
    expect(remediationSection(gate('typecheck', { passed: true }), templates)).toBe('');
  });

  it('words a blocking typecheck failure with its guidance, exit code and output', () => {
    expect(remediationSection(gate('typecheck'), templates)).toBe(
      [
        '### Gate `typecheck`: type errors (blocking)',
        '',
        'This gate is blocking: your change does not count until it passes.',
        REMEDIATION_GUIDANCE.typecheck,
        '',
        'It exited with code 2.',
        '',
        'Output (last lines):',
        '',
        '```',
        "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
        '```',
        '',
      ].join('\n'),
    );
  });

  it('words an advisory gate as limited to the changed code', () => {
    const text = remediationSection(
      gate('lint', { blocking: false, outputTail: "  3:10  error  'x' is defined but never used" }),
      templates,
    );
    expect(text).toContain('### Gate `lint`: lint problems (advisory)');
    expect(text).toContain('This gate is advisory: it does not stop your change from counting.');
    expect(text).not.toContain('blocking');
    expect(text).toContain(REMEDIATION_GUIDANCE.lint);
  });

  it.each([
    ['tests', 'failing tests', 'Do not skip, delete or weaken tests.'],
    ['security', 'security findings', 'Do not suppress or baseline the finding.'],
    ['smoke', 'check failed', 'Make this check pass'],
  ])('gives the %s gate its own title and guidance', (name, title, words) => {
    const text = remediationSection(gate(name), templates);
    expect(text).toContain(`: ${title} (blocking)`);
    expect(text).toContain(words);
  });

  it('points at a hang when the gate timed out', () => {
    const text = remediationSection(
      gate('test', { timedOut: true, exitCode: null, durationMs: 300_000 }),
      templates,
    );
    expect(text).toContain('It timed out after 300 s: look for a hang first');
    expect(remediationSection(gate('test', { exitCode: null }), templates)).toContain(
      'It exited with code none (killed by a signal).',
    );
  });

  it('keeps the last lines and characters of long output, without colour codes', () => {
    // Prepare
    const ESC = String.fromCharCode(27);
    const output = Array.from({ length: 50 }, (_, i) => `${ESC}[31mline ${i + 1}${ESC}[39m`).join(
      '\n',
    );

    // Act
    const text = remediationSection(gate('test', { outputTail: output }), templates, {
      maxOutputLines: 3,
    });

    // Assess
    expect(text).toContain('```\nline 48\nline 49\nline 50\n```');
    expect(text).not.toContain(ESC);
    const chars = remediationSection(gate('test', { outputTail: 'abcdefghij' }), templates, {
      maxOutputChars: 4,
    });
    expect(chars).toContain('```\nghij\n```');
  });

  it('says when the gate printed nothing', () => {
    expect(remediationSection(gate('test', { outputTail: '  \n' }), templates)).toContain(
      'It printed nothing.',
    );
  });

  it('quotes output holding a code fence safely', () => {
    const text = remediationSection(
      gate('docs', { outputTail: 'expected:\n```ts\nx\n```' }),
      templates,
    );
    expect(text).toContain('````\nexpected:\n```ts\nx\n```\n````');
  });

  it('uses an explicit kind for a gate whose name does not say', () => {
    expect(
      remediationSection(gate('verify'), templates, { gateKinds: { verify: 'tests' } }),
    ).toContain(': failing tests (blocking)');
  });
});

describe('Function: remediationPrompt', () => {
  it('is empty when no gate failed', () => {
    expect(remediationPrompt([gate('typecheck', { passed: true })], templates)).toBe('');
    expect(remediationPrompt([], templates)).toBe('');
  });

  it('puts blocking gates first and says how many must be fixed', () => {
    // Act
    const text = remediationPrompt(
      [
        gate('lint', { blocking: false }),
        gate('typecheck', { passed: true }),
        gate('test'),
        gate('typecheck'),
      ],
      templates,
    );

    // Assess
    expect(
      text.startsWith(
        '## Quality gates to fix\n\n2 blocking gates failed: fix them before anything else.\n\n### Gate `test`',
      ),
    ).toBe(true);
    expect(text.indexOf('### Gate `typecheck`')).toBeLessThan(text.indexOf('### Gate `lint`'));
    expect(text.match(/### Gate/g)).toHaveLength(3);
    expect(text.endsWith('```\n')).toBe(true);
  });

  it('words a single blocking failure and an advisory-only failure', () => {
    expect(remediationPrompt([gate('test')], templates)).toContain(
      '1 blocking gate failed: fix it before anything else.',
    );
    expect(remediationPrompt([gate('lint', { blocking: false })], templates)).toContain(
      'Only advisory gates failed: the change can count, but fix what they report in the code you changed.',
    );
  });
});
