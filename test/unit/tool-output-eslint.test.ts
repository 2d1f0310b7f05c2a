import { describe, expect, it } from 'vitest';
import { diagnosticsOf, ESLINT_STYLISH } from '../support/tool-outputs.js';

describe('Family: eslint', () => {
  describe('diagnostics', () => {
    it("takes eslint's problem summary", () => {
      expect(diagnosticsOf(ESLINT_STYLISH)).toEqual({
        errors: 2,
        warnings: 3,
        tools: ['eslint'],
      });
    });

    it('counts eslint stylish lines when the summary was cut off', () => {
      const cut = ESLINT_STYLISH.slice(0, ESLINT_STYLISH.indexOf('✖'));
      expect(diagnosticsOf(cut)).toEqual({ errors: 2, warnings: 3, tools: ['eslint'] });
    });
  });
});
