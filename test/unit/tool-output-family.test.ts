import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../lambdas/core/tool-output/families.js';
import { readLines, wordCounts } from '../../lambdas/core/tool-output/family.js';
import { outputLines } from '../../lambdas/core/tool-output/lines.js';
import { tsc } from '../../lambdas/core/tool-output/tsc.js';
import { VITEST_FAILED } from '../support/tool-outputs.js';

describe('Function: readLines', () => {
  it('gives each line the reading of its first reader, with its index', () => {
    // Prepare
    const lines = ['a1', 'b2', 'c3'];
    const digit = (all: readonly string[], i: number) =>
      /\d/.test(all[i] ?? '') ? { by: 'digit' } : undefined;
    const b = (all: readonly string[], i: number) =>
      all[i]?.startsWith('b') ? { by: 'b' } : undefined;

    // Act
    const found = readLines(lines, [b, digit]);

    // Assess
    expect(found).toEqual([
      { by: 'digit', at: 0 },
      { by: 'b', at: 1 },
      { by: 'digit', at: 2 },
    ]);
  });
});

describe('Function: wordCounts', () => {
  it('adds up counts of the same word', () => {
    expect(Object.fromEntries(wordCounts('1 failed | 5 passed, 2 passed'))).toEqual({
      failed: 1,
      passed: 7,
    });
  });
});

describe('Interface: ToolFamily', () => {
  it('gives one shape: summaries, diagnostics and located failures', () => {
    // Act
    const reading = tsc.read(outputLines("\nsrc/a.ts(3,7): error TS2322: Type 'x'.\n"));

    // Assess
    expect(reading).toEqual({
      tests: [],
      diagnostics: { tool: 'tsc', errors: 1, warnings: 0 },
      failures: [
        {
          kind: 'compile',
          at: 1,
          file: 'src/a.ts',
          line: 3,
          column: 7,
          code: 'TS2322',
          message: "Type 'x'.",
          evidence: "src/a.ts(3,7): error TS2322: Type 'x'.",
        },
      ],
    });
  });

  it('lets only the family that printed an output recognise it', () => {
    // Act
    const recognised = FAMILIES.filter((family) => {
      const reading = family.read(outputLines(VITEST_FAILED));
      return reading.tests.length > 0 || reading.diagnostics || reading.failures.length > 0;
    }).map((family) => family.name);

    // Assess
    expect(recognised).toEqual(['vitest-jest']);
  });
});
