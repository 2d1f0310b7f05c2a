import { describe, expect, it } from 'vitest';
import { errorLines, normaliseErrorLine } from '../../lambdas/core/tool-output/error-lines.js';

const CWD = '/home/dev/shop';

describe('Function: errorLines', () => {
  it('normalises positions, durations, addresses and the working directory away', () => {
    expect(
      normaliseErrorLine(`${CWD}/src/a.ts:12:5 - error TS2345: took 15ms at 0x7ffd1a2b line 40`, {
        maxLength: 200,
        cwd: CWD,
      }),
    ).toBe('src/a.ts:N:N - error TS2345: took Nms at 0xN line N');
  });

  it('finds error lines of the common tools', () => {
    const output = [
      'error[E0308]: mismatched types',
      "thread 'main' panicked at src/main.rs:4:5:",
      '--- FAIL: TestRemove (0.00s)',
      'FAILED tests/test_cart.py::test_remove - assert False',
      'E       AssertionError: assert False is True',
      "   3:10  error    'x' is defined but never used  no-unused-vars",
      'fatal: not a git repository',
      'TypeError: cart.remove is not a function',
      'All 3 tests passed, 0 errors.',
    ].join('\n');
    expect(errorLines(output, { isError: false, maxLength: 200 })).toHaveLength(8);
  });

  it('takes the first telling line of an error result without an error line', () => {
    expect(errorLines('Exit code 1\nsomething broke\n', { isError: true })).toEqual([
      'something broke',
    ]);
    expect(errorLines('Exit code 1\nsomething broke\n', { isError: false })).toEqual([]);
  });
});
