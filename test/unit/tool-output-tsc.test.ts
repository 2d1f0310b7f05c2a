import { describe, expect, it } from 'vitest';
import {
  compilerErrorOf,
  diagnosticsOf,
  TSC_ERRORS,
  TSC_PLAIN,
  TSC_PRETTY,
  TSC_PRETTY_COLOURED,
} from '../support/tool-outputs.js';

describe('Family: tsc', () => {
  describe('diagnostics', () => {
    it('counts tsc errors from their lines when there is no summary', () => {
      expect(diagnosticsOf(TSC_PLAIN)).toEqual({ errors: 3, warnings: 0, tools: ['tsc'] });
    });

    it("takes tsc's Found summary over its lines", () => {
      expect(diagnosticsOf(TSC_PRETTY)).toEqual({ errors: 2, warnings: 0, tools: ['tsc'] });
      expect(diagnosticsOf('Found 1 error in src/cart.ts:14\n')).toEqual({
        errors: 1,
        warnings: 0,
        tools: ['tsc'],
      });
    });
  });

  describe('compiler errors', () => {
    it('reads tsc errors, counting them and locating the first', () => {
      expect(compilerErrorOf(TSC_ERRORS)).toEqual({
        file: 'src/cart/total.ts',
        line: 12,
        column: 5,
        code: 'TS2322',
        message: "Type 'string' is not assignable to type 'number'.",
        errorCount: 2,
        evidence:
          "src/cart/total.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      });
    });

    it('reads tsc --pretty output once its colours are stripped', () => {
      expect(compilerErrorOf(TSC_PRETTY_COLOURED)).toMatchObject({
        file: 'src/cart/total.ts',
        line: 12,
        column: 5,
        code: 'TS2322',
        errorCount: 1,
      });
    });

    it('reads a tsc error without a location', () => {
      expect(
        compilerErrorOf("error TS5058: The specified path does not exist: 'tsconfig.app.json'."),
      ).toMatchObject({
        file: null,
        line: null,
        code: 'TS5058',
      });
    });
  });
});
