import { describe, expect, it } from 'vitest';
import { compilerErrorOf } from '../support/tool-outputs.js';

describe('Family: syntax errors', () => {
  describe('compiler errors', () => {
    it('reads a Python syntax error at the nearest location above it', () => {
      const output = [
        'Traceback (most recent call last):',
        '  File "/work/app/main.py", line 1, in <module>',
        '    from cart import total',
        '  File "/work/app/cart.py", line 12',
        '    def total(items:',
        '                   ^',
        "SyntaxError: '(' was never closed",
      ].join('\n');
      expect(compilerErrorOf(output)).toMatchObject({
        file: '/work/app/cart.py',
        line: 12,
        code: 'SyntaxError',
        message: "'(' was never closed",
      });
    });

    it('reads a Node syntax error under its file:line header', () => {
      const output =
        "/work/src/cart.js:12\n  return total +;\n                ^\n\nSyntaxError: Unexpected token ';'\n    at internalCompileFunction (node:internal/vm:76:18)";
      expect(compilerErrorOf(output)).toMatchObject({
        file: '/work/src/cart.js',
        line: 12,
        code: 'SyntaxError',
      });
    });

    it('does not take a runtime SyntaxError without a location for a compiler error', () => {
      expect(
        compilerErrorOf('SyntaxError: Unexpected token } in JSON at position 12'),
      ).toBeUndefined();
    });
  });
});
