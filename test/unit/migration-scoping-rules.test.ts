import { describe, expect, it } from 'vitest';
import {
  classifyScopingRule,
  splitScopingRules,
} from '../../bin/cli/patterns-migration/scoping-rules.js';

describe('Function: splitScopingRules', () => {
  it('makes one rule per string, list element or rule object, in input order', () => {
    // Act
    const { rules, values, count } = splitScopingRules({
      keep_together: ['OAuth per platform', 'Webhook and retry policy'],
      max_services: 'At most two services',
      technical_area: {
        rule: 'Name the service',
        example: 'tack: service/',
        reason: 'Routing',
        owner: 'team-a',
      },
      oauth: [{ description: 'Refresh with storage', type: 'bad_pattern' }],
    });

    // Assess
    expect(rules.map((rule) => [rule.at, rule.index, rule.topic, rule.text])).toEqual([
      ['scoping_rules.keep_together[0]', 0, 'keep_together', 'OAuth per platform'],
      ['scoping_rules.keep_together[1]', 1, 'keep_together', 'Webhook and retry policy'],
      ['scoping_rules.max_services', 2, 'max_services', 'At most two services'],
      ['scoping_rules.technical_area', 3, 'technical_area', 'Name the service'],
      ['scoping_rules.oauth[0]', 4, 'oauth', 'Refresh with storage'],
    ]);
    expect(rules[3]).toMatchObject({
      examples: ['tack: service/'],
      reasons: ['Routing'],
      extraFields: ['owner'],
    });
    expect(rules[4]?.explicitType).toBe('bad');
    expect(values).toEqual([]);
    expect(count).toBe(5);
  });

  it('splits off every other value, one per list element or topic, numbered with the rules', () => {
    // Act
    const { rules, values, count } = splitScopingRules({
      mixed: ['Keep OAuth per platform', 3, null, { note: 'x' }],
      max_acceptance_criteria: 8,
      empty: [],
      limits: { min: 3 },
      last: { description: 'Name the service' },
    });

    // Assess
    expect(rules.map((rule) => [rule.at, rule.index])).toEqual([
      ['scoping_rules.mixed[0]', 0],
      ['scoping_rules.last', 7],
    ]);
    expect(values.map((value) => [value.at, value.index, value.value])).toEqual([
      ['scoping_rules.mixed[1]', 1, 3],
      ['scoping_rules.mixed[2]', 2, null],
      ['scoping_rules.mixed[3]', 3, { note: 'x' }],
      ['scoping_rules.max_acceptance_criteria', 4, 8],
      ['scoping_rules.empty', 5, []],
      ['scoping_rules.limits', 6, { min: 3 }],
    ]);
    expect(count).toBe(8);
  });
});

describe('Function: classifyScopingRule', () => {
  it.each([
    ['any', 'Keep OAuth flow for a single platform in one story', 'good', 'says what to do'],
    ['any', 'Do not combine Pinterest OAuth with Facebook OAuth', 'bad', 'starts with "Do not"'],
    ['any', "Don't mix infra and UI", 'bad', `starts with "Don't"`],
    ['any', 'Never combine prompt and model changes', 'bad', 'starts with "Never"'],
    ['any', 'Avoid kitchen-sink stories', 'bad', 'starts with "Avoid"'],
    ['any', 'No story spans three services', 'bad', 'starts with "No"'],
    ['any', 'Split stories with more than seven criteria', 'bad', 'starts with "Split"'],
    ['any', 'Keep billing and OAuth apart', 'bad', 'keep things apart'],
    ['any', 'Moderation should not be bundled with generation', 'bad', '"not be bundled"'],
    ['keep_together', 'OAuth connect and callback', 'good', 'listed under "keep_together"'],
    [
      'do_not_combine',
      'Pinterest OAuth with Facebook OAuth',
      'bad',
      'listed under "do_not_combine"',
    ],
    ['doNotCombine', 'Pinterest OAuth with Facebook OAuth', 'bad', 'listed under "doNotCombine"'],
    ['avoid', 'Stories about everything', 'bad', 'listed under "avoid"'],
    ['estimation', 'Stories fit in one to three days', 'good', 'says what to do'],
  ])('topic %s, %s → %s', (topic, text, type, because) => {
    // Act
    const verdict = classifyScopingRule(topic, text);

    // Assess
    expect(verdict.type).toBe(type);
    expect(verdict.because).toContain(because);
  });

  it('lets an explicit type win over the wording', () => {
    expect(classifyScopingRule('do_not_combine', 'Do not split OAuth', 'good')).toEqual({
      type: 'good',
      because: 'explicit "type": "good"',
    });
  });
});
