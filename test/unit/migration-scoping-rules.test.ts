import { describe, expect, it } from 'vitest';
import {
  classifyScopingRule,
  flattenScopingRules,
} from '../../bin/cli/patterns-migration/scoping-rules.js';

describe('Function: flattenScopingRules', () => {
  it('makes one rule per string, list element or rule object, in input order', () => {
    // Act
    const rules = flattenScopingRules({
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
