import { describe, expect, it } from 'vitest';
import { errorSignature } from '../../lambdas/core/tool-output/error-signature.js';

describe('Function: errorSignature', () => {
  it('takes the first line that reports a problem', () => {
    // Prepare
    const output = [
      '> tsc --noEmit',
      '',
      "src/a.ts(12,5): error TS2345: Argument of type 'number' is not assignable.",
      "src/b.ts(3,1): error TS2304: Cannot find name 'x'.",
    ].join('\n');

    // Act
    const signature = errorSignature(output);

    // Assess
    expect(signature).toBe(
      "src/a.ts:<line>: error TS2345: Argument of type 'number' is not assignable.",
    );
  });

  it('falls back to the first non-empty line when none reports a problem', () => {
    expect(errorSignature('\n\n  something odd happened  \nmore')).toBe('something odd happened');
  });

  it.each([[''], ['   \n\n\t']])('has no signature for blank text %j', (text) => {
    expect(errorSignature(text)).toBeUndefined();
  });

  it('gives the same signature when only the position in the file moved', () => {
    expect(errorSignature('src/a.ts:12:5 - error TS2322: bad')).toBe(
      errorSignature('src/a.ts:140:17 - error TS2322: bad'),
    );
    expect(errorSignature('src/a.ts:12:5 - error TS2322: bad')).toBe(
      'src/a.ts:<line> - error TS2322: bad',
    );
  });

  it('keeps numbers that are part of a name, such as an error code', () => {
    expect(errorSignature('error TS2322: bad')).not.toBe(errorSignature('error TS2345: bad'));
  });

  it('replaces standalone numbers, with or without a unit', () => {
    expect(errorSignature('AssertionError: expected 3 to be 4 after 1.5s')).toBe(
      'AssertionError: expected <n> to be <n> after <n>s',
    );
  });

  it('replaces hex ids, uuids, hex literals and timestamps', () => {
    // Prepare
    const line =
      'Error at 2025-03-04T05:06:07.123Z in commit 3f9a2c1d request 123e4567-e89b-12d3-a456-426614174000 address 0xDEADBEEF';

    // Act
    const signature = errorSignature(line);

    // Assess
    expect(signature).toBe('Error at <time> in commit <hex> request <hex> address <hex>');
  });

  it('does not take an ordinary word for a hex id', () => {
    expect(errorSignature('error: deadbeef facade')).toBe('error: deadbeef facade');
  });

  it('strips colours and collapses whitespace', () => {
    expect(errorSignature('\u001b[31mFAIL\u001b[39m   test/a.test.ts  >  adds')).toBe(
      'FAIL test/a.test.ts > adds',
    );
  });

  it('cuts the signature to the maximum length', () => {
    // Prepare
    const long = `error: ${'x'.repeat(300)}`;

    // Act + Assess
    expect(errorSignature(long)).toHaveLength(200);
    expect(errorSignature(long, 10)).toBe('error: xxx');
  });

  it('is the same for one error at another line and different for another error', () => {
    const a = errorSignature("src/a.ts(12,5): error TS2322: Type 'string' is not assignable");
    expect(errorSignature("src/a.ts(30,1): error TS2322: Type 'string' is not assignable")).toBe(a);
    expect(errorSignature("src/a.ts(12,5): error TS2339: Property 'x' does not exist")).not.toBe(a);
    expect(errorSignature('  \n ')).toBeUndefined();
  });
});
