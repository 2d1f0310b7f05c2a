import { describe, expect, it } from 'vitest';
import {
  assessQuality,
  ENFORCEMENT_NOTE_PREFIX,
  type QualityGateInput,
} from '../../lambdas/core/control/quality/enforce.js';

const gate = (name: string, overrides: Partial<QualityGateInput> = {}): QualityGateInput => ({
  name,
  blocking: true,
  passed: true,
  exitCode: 0,
  timedOut: false,
  durationMs: 1000,
  outputTail: '',
  ...overrides,
});

/** A vitest summary that exited 0 (a runner configured to tolerate failures, say). */
const vitest = (failed: number, passed: number): string =>
  ` Test Files  3 passed (3)\n      Tests  ${failed > 0 ? `${failed} failed | ` : ''}${passed} passed (${failed + passed})\n`;

const source = { path: 'src/cart.ts', added: 12, removed: 1 };
const testFile = { path: 'test/cart.test.ts', added: 20, removed: 0 };

describe('Function: assessQuality — tests.minPassRate', () => {
  it.each([
    ['just below (0.9497)', 10, 189, false],
    ['well below (0.9)', 2, 18, false],
    ['exactly at (0.95)', 1, 19, true],
    ['above (0.975)', 1, 39, true],
    ['all passing', 0, 20, true],
  ])('a tests gate that exited 0 with a pass rate %s passes: %s', (_, failed, passed, ok) => {
    // Prepare
    const input = { gates: [gate('test', { outputTail: vitest(failed, passed) })] };

    // Act
    const { gates, overruled } = assessQuality(input);

    // Assess
    expect(gates[0]?.passed).toBe(ok);
    expect(overruled.length).toBe(ok ? 0 : 1);
  });

  it('says why in the gate result: the rate, the counts and the setting', () => {
    const { gates, overruled } = assessQuality({
      gates: [gate('test', { outputTail: vitest(2, 18) })],
    });
    expect(gates[0]).toMatchObject({ passed: false, exitCode: 0, blocking: true });
    expect(gates[0]?.outputTail).toContain(
      `${ENFORCEMENT_NOTE_PREFIX} pass rate 0.9 (18 of 20 tests passed) below quality.tests.minPassRate 0.95`,
    );
    expect(gates[0]?.outputTail.startsWith(vitest(2, 18))).toBe(true);
    expect(overruled).toEqual([
      {
        gate: 'test',
        reason: 'pass rate 0.9 (18 of 20 tests passed) below quality.tests.minPassRate 0.95',
      },
    ]);
  });

  it('never shows a rate just below the limit rounded up to it', () => {
    const { overruled } = assessQuality(
      {
        gates: [gate('test', { outputTail: vitest(1, 19_999) })],
      },
      { tests: { minPassRate: 0.99996 } },
    );
    // 19999 / 20000 = 0.99995: four decimals would read 1.
    expect(overruled[0]?.reason).toContain('pass rate 0.99995 ');
  });

  it('follows a configured minPassRate', () => {
    const input = { gates: [gate('test', { outputTail: vitest(2, 18) })] };
    expect(assessQuality(input, { tests: { minPassRate: 0.9 } }).gates[0]?.passed).toBe(true);
    expect(assessQuality(input, { tests: { minPassRate: 0.91 } }).gates[0]?.passed).toBe(false);
  });

  it('records tolerated failures at or above the limit as a review finding', () => {
    const { findings } = assessQuality({ gates: [gate('test', { outputTail: vitest(1, 19) })] });
    expect(findings).toEqual([
      {
        kind: 'test_failures',
        gate: 'test',
        message:
          '1 test failed, tolerated by quality.tests.minPassRate 0.95: pass rate 0.95 (19 of 20 tests passed)',
      },
    ]);
  });

  it.each([
    ['no summary', 'all good\n'],
    ['only skipped tests', '      Tests  4 skipped (4)\n'],
    ['empty output', ''],
  ])('changes nothing when the counts are unknown: %s', (_, outputTail) => {
    const input = { gates: [gate('test', { outputTail })] };
    expect(assessQuality(input)).toEqual({
      gates: [gate('test', { outputTail })],
      findings: [],
      overruled: [],
    });
  });

  it('never turns a failed exit code into a pass, however high the rate', () => {
    const failed = gate('test', { passed: false, exitCode: 1, outputTail: vitest(1, 99) });
    const { gates, overruled } = assessQuality({ gates: [failed] });
    expect(gates[0]).toEqual(failed);
    expect(overruled).toEqual([]);
  });

  it('judges pass rates of tests gates only, with the explicit kind mapping first', () => {
    const output = vitest(5, 5);
    expect(assessQuality({ gates: [gate('smoke', { outputTail: output })] }).gates[0]?.passed).toBe(
      true,
    );
    expect(
      assessQuality({
        gates: [gate('smoke', { outputTail: output })],
        gateKinds: { smoke: 'tests' },
      }).gates[0]?.passed,
    ).toBe(false);
  });

  it('reads the full output when the runner gives it, and returns no output field', () => {
    const { gates } = assessQuality({
      gates: [gate('test', { outputTail: '...', output: `lots of lines\n${vitest(3, 7)}` })],
    });
    expect(gates[0]?.passed).toBe(false);
    expect(gates[0]).not.toHaveProperty('output');
  });
});

describe('Function: assessQuality — security', () => {
  const audit = (outputTail: string, overrides: Partial<QualityGateInput> = {}) =>
    gate('audit', { outputTail, ...overrides });

  it.each([
    ['0 critical, 0 high', '0 critical, 0 high\n', true],
    ['1 critical', '1 critical, 0 high\n', false],
    ['1 high', '0 critical, 1 high\n', false],
  ])('a security gate that exited 0 with %s passes: %s', (_, output, ok) => {
    expect(assessQuality({ gates: [audit(output)] }).gates[0]?.passed).toBe(ok);
  });

  it('says which setting blocked it', () => {
    const { gates, overruled } = assessQuality({
      gates: [audit('3 vulnerabilities (1 moderate, 1 high, 1 critical)\n')],
    });
    expect(overruled[0]?.reason).toBe(
      '1 critical, 1 high vulnerabilities reported; blocked by quality.security.blockOnCritical and quality.security.blockOnHigh',
    );
    expect(gates[0]?.outputTail).toContain(ENFORCEMENT_NOTE_PREFIX);
  });

  it('turns critical and high into review findings when their block options are off', () => {
    // Act
    const { gates, findings } = assessQuality(
      { gates: [audit('3 vulnerabilities (1 moderate, 1 high, 1 critical)\n')] },
      { security: { blockOnCritical: false, blockOnHigh: false } },
    );

    // Assess
    expect(gates[0]?.passed).toBe(true);
    expect(findings).toEqual([
      {
        kind: 'security',
        gate: 'audit',
        message: '1 critical, 1 high, 1 moderate vulnerabilities reported (not blocking)',
      },
    ]);
  });

  it('blocks on each severity only by its own option', () => {
    const output = '0 critical, 2 high\n';
    expect(
      assessQuality({ gates: [audit(output)] }, { security: { blockOnHigh: false } }).gates[0]
        ?.passed,
    ).toBe(true);
    expect(
      assessQuality({ gates: [audit(output)] }, { security: { blockOnCritical: false } }).gates[0]
        ?.passed,
    ).toBe(false);
  });

  it('reports lower severities as a review finding, never a failure', () => {
    const { gates, findings } = assessQuality({
      gates: [audit('found 2 vulnerabilities (1 low, 1 moderate) in 10 scanned packages\n')],
    });
    expect(gates[0]?.passed).toBe(true);
    expect(findings).toEqual([
      {
        kind: 'security',
        gate: 'audit',
        message: '1 moderate, 1 low vulnerabilities reported (not blocking)',
      },
    ]);
  });

  it('changes nothing when the scanner output has no counts', () => {
    const clean = audit('No known vulnerabilities.\n');
    expect(assessQuality({ gates: [clean] })).toEqual({
      gates: [clean],
      findings: [],
      overruled: [],
    });
  });

  it('leaves a failed security gate failed and adds no note', () => {
    const failed = audit('1 critical severity vulnerability\n', { passed: false, exitCode: 1 });
    const { gates, overruled } = assessQuality({ gates: [failed] });
    expect(gates[0]).toEqual(failed);
    expect(overruled).toEqual([]);
  });

  it('keeps an advisory security gate advisory: failed, and a review finding', () => {
    const { gates, findings } = assessQuality({
      gates: [audit('1 critical severity vulnerability\n', { blocking: false })],
    });
    expect(gates[0]).toMatchObject({ passed: false, blocking: false });
    expect(findings).toEqual([
      {
        kind: 'advisory_gate',
        gate: 'audit',
        message:
          'advisory gate audit failed (1 critical vulnerability reported; blocked by quality.security.blockOnCritical)',
      },
    ]);
  });
});

describe('Function: assessQuality — warnings', () => {
  const lint = (warnings: number) =>
    gate('lint', { outputTail: `\n✖ ${warnings} problems (0 errors, ${warnings} warnings)\n` });

  it.each([
    [0, undefined],
    [1, '1 warning (eslint)'],
    [20, '20 warnings (eslint)'],
    [21, '21 warnings (eslint), above quality.warnings.max 20'],
  ])('%i warnings: finding %s, and the gate still passes', (count, message) => {
    const { gates, findings } = assessQuality({ gates: [lint(count)] });
    expect(gates[0]?.passed).toBe(true);
    expect(findings).toEqual(message ? [{ kind: 'warnings', gate: 'lint', message }] : []);
  });

  it('reads warnings of any gate whose output shows a linter or compiler', () => {
    const { findings } = assessQuality({
      gates: [
        gate('check', {
          outputTail:
            'warning: unused variable: `x`\n   --> src/main.rs:2:9\nwarning: `demo` (bin "demo") generated 1 warning\n    Finished `dev` profile target(s) in 0.5s\n',
        }),
      ],
    });
    expect(findings).toEqual([{ kind: 'warnings', gate: 'check', message: '1 warning (clippy)' }]);
  });
});

describe('Function: assessQuality — advisory gates', () => {
  it.each([
    [{ exitCode: 3 }, 'exit code 3'],
    [{ exitCode: null, timedOut: true }, 'timed out'],
    [{ exitCode: null }, 'killed by a signal'],
  ])('an advisory gate that failed (%o) is a review finding', (how, why) => {
    const { findings } = assessQuality({
      gates: [gate('docs', { blocking: false, passed: false, ...how })],
    });
    expect(findings).toEqual([
      { kind: 'advisory_gate', gate: 'docs', message: `advisory gate docs failed (${why})` },
    ]);
  });

  it('an advisory gate that passed, or a blocking one that failed, is not', () => {
    const { findings } = assessQuality({
      gates: [gate('docs', { blocking: false }), gate('typecheck', { passed: false, exitCode: 2 })],
    });
    expect(findings).toEqual([]);
  });

  it('an advisory tests gate failed by the pass rate is one', () => {
    const { gates, findings } = assessQuality({
      gates: [gate('e2e', { blocking: false, outputTail: vitest(3, 7) })],
    });
    expect(gates[0]?.passed).toBe(false);
    expect(findings.map((finding) => finding.kind)).toEqual(['advisory_gate']);
    expect(findings[0]?.message).toContain('pass rate 0.7 (7 of 10 tests passed)');
  });
});

describe('Function: assessQuality — tests.requireNewTestsForNewCode', () => {
  it('finds source lines added with no test file changed', () => {
    const { findings, gates } = assessQuality({
      gates: [gate('test')],
      files: [source, { path: 'README.md', added: 3 }],
    });
    expect(gates[0]?.passed).toBe(true);
    expect(findings).toEqual([
      {
        kind: 'missing_tests',
        message:
          '12 source lines added in 1 file (src/cart.ts) and no test file changed (quality.tests.requireNewTestsForNewCode)',
      },
    ]);
  });

  it('finds a new source file even without line counts', () => {
    const { findings } = assessQuality({
      gates: [],
      files: [{ path: 'src/logo.svelte', created: true }],
    });
    expect(findings[0]?.kind).toBe('missing_tests');
  });

  it('names five files at most', () => {
    const files = Array.from({ length: 7 }, (_, i) => ({ path: `src/f${i}.ts`, added: 1 }));
    const { findings } = assessQuality({ gates: [], files });
    expect(findings[0]?.message).toContain(
      '7 source lines added in 7 files (src/f0.ts, src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts and 2 more)',
    );
  });

  it.each([
    ['a test file changed too', [source, testFile]],
    ['source lines only removed (a refactor)', [{ path: 'src/cart.ts', added: 0, removed: 9 }]],
    [
      'configuration and docs only',
      [
        { path: 'tsconfig.json', added: 4 },
        { path: 'docs/a.md', added: 9 },
      ],
    ],
    ['no change', []],
  ])('finds nothing with %s', (_, files) => {
    expect(assessQuality({ gates: [], files }).findings).toEqual([]);
  });

  it('finds nothing when the setting is off', () => {
    const input = { gates: [], files: [source] };
    expect(assessQuality(input, { tests: { requireNewTestsForNewCode: false } }).findings).toEqual(
      [],
    );
  });
});

describe('Function: assessQuality — several gates', () => {
  it('keeps the gates in order and lists findings by gate, the change last', () => {
    // Prepare
    const input = {
      gates: [
        gate('typecheck'),
        gate('lint', { outputTail: '✖ 2 problems (0 errors, 2 warnings)\n' }),
        gate('test', { outputTail: vitest(2, 18) }),
        gate('audit', { blocking: false, outputTail: '1 low severity vulnerability\n' }),
      ],
      files: [source],
    };

    // Act
    const { gates, findings } = assessQuality(input);

    // Assess
    expect(gates.map((g) => [g.name, g.passed])).toEqual([
      ['typecheck', true],
      ['lint', true],
      ['test', false],
      ['audit', true],
    ]);
    expect(findings.map((f) => [f.kind, f.gate])).toEqual([
      ['warnings', 'lint'],
      ['security', 'audit'],
      ['missing_tests', undefined],
    ]);
  });
});
