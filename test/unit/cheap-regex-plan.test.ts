import { describe, expect, it } from 'vitest';
import { planRegex, type RegexPlan } from '../../lambdas/core/cheap/regex-plan.js';
import { classSet, type CharSet } from '../../lambdas/core/cheap/regex-charset.js';

/** The plan of a regex the analysis must accept. */
function plan(source: string): RegexPlan {
  const result = planRegex(source);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.plan;
}

/** The ASCII members of a set, as a string, and whether non-ASCII characters may be in. */
function members(set: CharSet | undefined): string {
  if (!set) return '(none)';
  let out = '';
  for (let code = 32; code < 127; code += 1) if (set[code]) out += String.fromCharCode(code);
  return set[128] ? `${out}+` : out;
}

describe('Function: planRegex', () => {
  describe('exact string sets', () => {
    it.each([
      ['as an? admin', ['as a admin', 'as an admin'], false, false],
      ['\\b(?:todo|fixme)\\b', ['todo', 'fixme'], true, true],
      ['\\border(?:s|ed)?\\b', ['order', 'orders', 'ordered'], true, true],
      ['bug\\.(?:ts|js)', ['bug.ts', 'bug.js'], false, false],
      ['AB{2}c', ['abbc'], false, false],
    ])('/%s/ matches exactly %j', (source, texts, boundaryStart, boundaryEnd) => {
      // Act
      const { exact } = plan(source);

      // Assess
      expect(exact).toEqual(texts.map((text) => ({ text, boundaryStart, boundaryEnd })));
    });

    it.each([
      'ab+c', // unbounded
      'a[bc]d', // class
      'a\\dc', // digit
      'a\\bb', // boundary inside
      '(a)\\1', // backreference
      'a(?=b)', // lookahead
      '^abc', // anchor
      '(?:a|b|c|d|e|f)(?:a|b|c|d|e|f)', // 36 strings: more than 32
    ])('/%s/ is not an exact set', (source) => {
      expect(plan(source).exact).toBeUndefined();
    });
  });

  describe('required literals', () => {
    it('prefers a literal at a fixed offset, and records the offset range', () => {
      expect(plan('\\bas an? \\w+ i want').literals).toEqual([
        { text: 'as a', minOffset: 0, maxOffset: 0, boundaryBefore: true },
      ]);
      expect(plan('\\w?-report').literals).toEqual([
        { text: '-report', minOffset: 0, maxOffset: 1 },
      ]);
      expect(plan('(?:a\\s+|bb)-report').literals).toEqual([
        { text: '-report', minOffset: 2, maxOffset: Infinity },
      ]);
    });

    it('takes one literal from each alternative, or none when one alternative has none', () => {
      expect(plan('foo\\d|bar\\s').literals.map((literal) => literal.text)).toEqual(['foo', 'bar']);
      expect(plan('foo\\d|\\s\\d').literals.map((literal) => literal.text)).toEqual([
        'foo',
        ...'0123456789',
      ]);
      expect(plan('foo\\d|[a-z]+').literals).toEqual([]);
    });

    it('reads a literal through escapes and case: lower-cased ASCII only', () => {
      expect(plan('Report\\.PDF\\d').literals[0]?.text).toBe('report.pdf');
      expect(plan('\\x41bcd\\d').literals[0]?.text).toBe('bcd');
      expect(plan('caféx\\d').literals[0]?.text).toBe('caf');
    });

    it('accepts short literals of digits and punctuation, not of letters', () => {
      expect(plan('[a-z]+%').literals.map((literal) => literal.text)).toEqual(['%']);
      expect(plan('\\d+%').literals.map((literal) => literal.text)).toEqual([...'0123456789']);
      expect(plan('[a-z]+ab[a-z]+').literals).toEqual([]);
    });

    it('marks a literal right after \\b, and gives an unbounded one the characters before it', () => {
      // Act
      const [dash] = plan('\\b[A-Z]{2,}-\\d+\\b').literals;
      const [at] = plan('\\w+@\\w+').literals;
      const [afterGroup] = plan('(?:ab|c)+-x\\d').literals;

      // Assess
      expect(dash).toMatchObject({ text: '-', minOffset: 2, maxOffset: Infinity });
      expect(members(dash?.prefixSet)).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
      expect(members(at?.prefixSet)).toBe(
        '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz',
      );
      expect(afterGroup?.prefixSet).toBeUndefined();
    });
  });

  it('makes capturing groups non-capturing, so that regexes can share one alternation', () => {
    expect(plan('(a|b)(?<year>\\d{4})[(]x').combinable).toBe('(?:a|b)(?:\\d{4})[(]x');
    expect(plan('(a)\\1').combinable).toBeUndefined();
    expect(plan('(?<q>a)\\k<q>').combinable).toBeUndefined();
  });

  it.each([
    ['(', 'not a valid regular expression'],
    ['a**', 'not a valid regular expression'],
    ['', 'matches the empty string'],
    ['a?', 'matches the empty string'],
    ['(?:)', 'matches the empty string'],
    ['(a+)+', 'nested unbounded quantifiers'],
    ['(?:a*b?)*c', 'nested unbounded quantifiers'],
    ['x'.repeat(501), 'longer than 500 characters'],
  ])('refuses /%s/: %s', (source, reason) => {
    // Act
    const result = planRegex(source);

    // Assess
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('accepts bounded repetition of a repetition, which cannot blow up', () => {
    expect(planRegex('(a+){2}x').ok).toBe(true);
  });
});

describe('Function: classSet', () => {
  const body = (source: string) => members(classSet(source, 1, source.length - 1));

  it.each([
    ['[abc]', 'ABCabc'],
    ['[a-c_]', 'ABC_abc'],
    ['[\\d.]', '.0123456789'],
    ['[x\\-z]', '-XZxz'],
    ['[\\]]', ']'],
    ['[\\w-]', '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'],
    ['[é]', '+'],
  ])('%s holds %j', (source, expected) => {
    expect(body(source)).toBe(expected);
  });

  it('complements a negated class, non-ASCII characters included', () => {
    const set = classSet('[^a-z]', 1, 5);
    expect(set[97]).toBe(0);
    expect(set[65]).toBe(0); // case-insensitive: A is excluded with a
    expect(set[48]).toBe(1);
    expect(set[128]).toBe(1);
  });

  it('says "anything" for a form it does not read', () => {
    expect(body('[\\x41]')).toHaveLength(96);
  });
});
