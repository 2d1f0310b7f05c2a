import { describe, expect, it } from 'vitest';
import { compilerErrorOf } from '../support/tool-outputs.js';

describe('Family: the GNU error format and javac', () => {
  describe('compiler errors', () => {
    it.each([
      [
        'src/main/java/App.java:12: error: cannot find symbol\n        total = cart.sum();\n1 error',
        'src/main/java/App.java',
        12,
        null,
        'cannot find symbol',
      ],
      [
        "src/total.c:12:5: error: expected ';' before 'return'",
        'src/total.c',
        12,
        5,
        "expected ';' before 'return'",
      ],
      [
        'src/App.kt:3:9: fatal error: unresolved reference: foo',
        'src/App.kt',
        3,
        9,
        'unresolved reference: foo',
      ],
    ])('reads %j', (output, file, line, column, message) => {
      expect(compilerErrorOf(output)).toMatchObject({ file, line, column, message });
    });

    it('takes a go file in the GNU format for a GNU-format error', () => {
      // Prepare: the go family reads the same line as `error: undefined: x`
      const output = './main.go:3:1: error: undefined: x';

      // Act + Assess
      expect(compilerErrorOf(output)).toMatchObject({ file: './main.go', message: 'undefined: x' });
    });
  });
});
