/**
 * Reading parts back out of the prompts (`local/offline-judge/prompt-sections.ts`,
 * `change-prompt.ts`) and `local/parse-json.ts`.
 */
import { describe, expect, it } from 'vitest';
import { buildJudgePrompt } from '../../lambdas/core/judge/prompt.js';
import { readChange } from '../../local/offline-judge/change-prompt.js';
import {
  between,
  numberAfter,
  readFence,
  sectionAfter,
} from '../../local/offline-judge/prompt-sections.js';
import { parseJsonOr } from '../../local/offline-judge/parse-json.js';
import { changeOf } from '../support/offline-judge.js';

describe('Function: readFence', () => {
  it('reads the first block, closed only by a fence as long as its opening one', () => {
    // Prepare
    const text = ['intro', '````diff', '```', 'inner', '````', '```json', '{}', '```'].join('\n');

    // Act / Assess
    expect(readFence(text)).toEqual({ info: 'diff', body: '```\ninner' });
    expect(readFence('```json\nnever closed')).toBeUndefined();
    expect(readFence('no fence')).toBeUndefined();
  });
});

describe('Functions: sectionAfter, between, numberAfter', () => {
  it('find a heading, the text between two markers, and a number after a label', () => {
    // Prepare
    const text = 'a\n## Files changed\n- x\nGap: -1.25\nend';

    // Act / Assess
    expect(sectionAfter(text, '## Files changed')).toBe('## Files changed\n- x\nGap: -1.25\nend');
    expect(sectionAfter(text, '## Diff')).toBe('');
    expect(between(text, /changed/, /gap/i)).toBe('- x');
    expect(between(text, /missing/, /gap/i)).toBeUndefined();
    expect(numberAfter(text, /gap:\s*(-?\d+(?:\.\d+)?)/i)).toBe(-1.25);
  });
});

describe('Function: readChange', () => {
  it('reads the criteria, gates, files and diff the judge prompt shows', () => {
    // Prepare
    const prompt = buildJudgePrompt(changeOf({ tests: false, gatesPass: false })).user;

    // Act
    const change = readChange(prompt);

    // Assess
    expect(change).toMatchObject({
      acceptanceCriteria: ['Export returns the invoices as CSV', 'An empty list shows a message'],
      gates: [
        { name: 'typecheck', passed: true },
        { name: 'test', blocking: true, passed: false },
      ],
      filesChanged: ['src/export.ts'],
      diff: expect.stringMatching(/^diff --git a\/src\/export.ts .*"No invoices to export";$/s),
    });
  });
});

describe('Function: parseJsonOr', () => {
  it('parses JSON, or gives the fallback', () => {
    expect(parseJsonOr('{"a":1}', undefined)).toEqual({ a: 1 });
    expect(parseJsonOr('{not json', '{not json')).toBe('{not json');
  });
});
