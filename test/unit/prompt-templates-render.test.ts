import { describe, expect, it } from 'vitest';
import { PromptTemplateError } from '../../lambdas/core/prompts/errors.js';
import {
  isSet,
  parseTemplate,
  renderTemplate,
  type TemplateValue,
} from '../../lambdas/core/prompts/render.js';

/** The error a call throws, so its fields can be asserted. */
function thrown(call: () => unknown): PromptTemplateError {
  try {
    call();
  } catch (error) {
    if (error instanceof PromptTemplateError) return error;
    throw error;
  }
  throw new Error('expected a PromptTemplateError, nothing was thrown');
}

describe('Function: renderTemplate', () => {
  describe('values', () => {
    it('inserts each value verbatim, markdown and all', () => {
      // Act
      const text = renderTemplate('t', 'Fix **{{what}}** in `{{file}}`.', {
        what: 'the <type> error',
        file: 'src/a.ts',
      });

      // Assess
      expect(text).toBe('Fix **the <type> error** in `src/a.ts`.');
    });

    it.each([
      [0, '0'],
      [1, '1'],
      [-1, '-1'],
      [2.5, '2.5'],
      ['', ''],
      [' ', ' '],
      [true, 'true'],
      [false, ''],
      [null, ''],
      [undefined, ''],
    ] as [TemplateValue, string][])('prints %j as %j', (value, printed) => {
      expect(renderTemplate('t', '[{{v}}]', { v: value })).toBe(`[${printed}]`);
    });

    it('never reads a value as template text', () => {
      // Act
      const text = renderTemplate('t', 'Output: {{output}}', {
        output: '{{#x}}${{ secrets.TOKEN }}{{/x}} }}',
      });

      // Assess
      expect(text).toBe('Output: {{#x}}${{ secrets.TOKEN }}{{/x}} }}');
    });

    it('accepts spaces inside the braces', () => {
      expect(renderTemplate('t', '{{ a }}{{# b }}!{{/ b }}', { a: 'x', b: true })).toBe('x!');
    });

    it('inserts the same placeholder as often as it appears', () => {
      expect(renderTemplate('t', '{{a}}-{{a}}', { a: 'x' })).toBe('x-x');
    });
  });

  describe('blocks', () => {
    it.each([
      [undefined, false],
      [null, false],
      [false, false],
      ['', false],
      [0, false],
      [-1, true],
      [1, true],
      [0.5, true],
      [' ', true],
      ['0', true],
      [true, true],
    ] as [TemplateValue, boolean][])(
      'treats %j as set: %s ({{#…}} shows, {{^…}} hides)',
      (value, set) => {
        // Act
        const shown = renderTemplate('t', '<{{#v}}yes{{/v}}>', { v: value });
        const inverted = renderTemplate('t', '<{{^v}}no{{/v}}>', { v: value });

        // Assess
        expect(isSet(value)).toBe(set);
        expect(shown).toBe(set ? '<yes>' : '<>');
        expect(inverted).toBe(set ? '<>' : '<no>');
      },
    );

    it('nests blocks, the inner one judged on its own value', () => {
      // Prepare
      const template = '{{#a}}A{{#b}}B{{/b}}{{^b}}-{{/b}}{{/a}}';

      // Act
      const both = renderTemplate('t', template, { a: true, b: true });
      const outer = renderTemplate('t', template, { a: true, b: false });
      const none = renderTemplate('t', template, { a: false, b: true });

      // Assess
      expect(both).toBe('AB');
      expect(outer).toBe('A-');
      expect(none).toBe('');
    });

    it('drops a line holding only a block tag, newline included, even indented', () => {
      // Prepare
      const template = ['Intro', '{{#list}}', '', '{{list}}', '  {{/list}}  ', 'End'].join('\n');

      // Act
      const withList = renderTemplate('t', template, { list: '- a' });
      const without = renderTemplate('t', template, { list: '' });

      // Assess
      expect(withList).toBe('Intro\n\n- a\nEnd');
      expect(without).toBe('Intro\nEnd');
    });

    it('keeps a line whose block tag shares it with text', () => {
      // Prepare
      const template = 'Attempt 2{{#retry}} (again){{/retry}}.\nNext';

      // Act
      const retried = renderTemplate('t', template, { retry: true });
      const first = renderTemplate('t', template, { retry: false });

      // Assess
      expect(retried).toBe('Attempt 2 (again).\nNext');
      expect(first).toBe('Attempt 2.\nNext');
    });

    it('keeps the line of a value tag standing alone, empty or not', () => {
      expect(renderTemplate('t', 'a\n{{v}}\nb', { v: '' })).toBe('a\n\nb');
    });

    it('drops a standalone tag on the last line, which has no newline', () => {
      expect(renderTemplate('t', 'a\n{{#v}}\nb\n{{/v}}', { v: true })).toBe('a\nb');
    });
  });

  describe('line endings', () => {
    it('drops trailing newlines of the result, and only those', () => {
      expect(renderTemplate('t', '\n\nText\n\n\n', {})).toBe('\n\nText');
      expect(renderTemplate('t', 'Text  ', {})).toBe('Text  ');
    });

    it('reads Windows line endings as newlines', () => {
      expect(renderTemplate('t', 'a\r\n{{#v}}\r\nb\r\n{{/v}}\r\nc\r\n', { v: true })).toBe(
        'a\nb\nc',
      );
    });
  });

  describe('errors', () => {
    it('names the template and the placeholder the values lack', () => {
      // Act
      const error = thrown(() =>
        renderTemplate('role-debugger', 'Fix {{storyId}}', { story: 'US-1' }),
      );

      // Assess
      expect(error.template).toBe('role-debugger');
      expect(error.placeholder).toBe('storyId');
      expect(error.code).toBe('PROMPT_TEMPLATE');
      expect(error.name).toBe('PromptTemplateError');
      expect(error.message).toBe(
        'prompt template "role-debugger": unknown placeholder {{storyId}}: the code provides {{story}}',
      );
    });

    it('counts a key holding undefined as provided, and a block placeholder as required', () => {
      expect(renderTemplate('t', '{{a}}', { a: undefined })).toBe('');
      expect(thrown(() => renderTemplate('t', '{{#a}}x{{/a}}', {})).message).toContain(
        'unknown placeholder {{a}}: the code provides no values',
      );
    });

    it.each([
      ['{{a b}}', 'malformed tag {{a b}} on line 1'],
      ['x\n{{}}', 'malformed tag {{}} on line 2'],
      ['{{1st}}', 'malformed tag {{1st}}'],
      ['{{a-b}}', 'malformed tag {{a-b}}'],
      ['{{!note}}', 'malformed tag {{!note}}'],
      ['a\nb {{ c', 'stray braces on line 2'],
      ['{{a}} }}', 'stray braces on line 1'],
      ['{{{a}}}', 'stray braces on line 1'],
    ])('rejects the malformed %j', (template, problem) => {
      // Act
      const error = thrown(() => parseTemplate('section-role', template));

      // Assess
      expect(error.template).toBe('section-role');
      expect(error.message).toContain(problem);
    });

    it.each([
      ['{{#a}}x', '{{#a}} on line 1 is never closed', 'a'],
      ['{{^a}}\nx', '{{^a}} on line 1 is never closed', 'a'],
      ['x\n{{/a}}', '{{/a}} on line 2 closes a block that is not open', 'a'],
      ['{{#a}}\n{{#b}}\n{{/a}}\n{{/b}}', '{{/a}} on line 3 closes {{#b}} of line 2', 'a'],
    ])('rejects the unbalanced %j', (template, problem, placeholder) => {
      // Act
      const error = thrown(() => parseTemplate('iteration', template));

      // Assess
      expect(error.message).toBe(`prompt template "iteration": ${problem}`);
      expect(error.placeholder).toBe(placeholder);
    });
  });
});

describe('Function: parseTemplate', () => {
  it('lists every placeholder once, in order of first use', () => {
    expect(parseTemplate('t', '{{#b}}{{a}}{{/b}} {{c}} {{a}} {{^d}}{{/d}}').placeholders).toEqual([
      'b',
      'a',
      'c',
      'd',
    ]);
  });

  it('lists none for plain text', () => {
    expect(parseTemplate('t', 'Plain { text } with single braces.').placeholders).toEqual([]);
  });
});
