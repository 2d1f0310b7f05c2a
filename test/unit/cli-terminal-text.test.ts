import { describe, expect, it } from 'vitest';
import { createOutput } from '../../bin/cli/output.js';
import { terminalSafe } from '../../bin/cli/terminal-text.js';

describe('Function: terminalSafe', () => {
  it.each([
    ['plain text', 'plain text'],
    ['two\nlines\twith a tab', 'two\nlines\twith a tab'],
    ['windows\r\nline', 'windows\nline'],
    ['retitle\x1b]0;pwned\x07', 'retitle\\x1b]0;pwned\\x07'],
    ['clipboard \x1b]52;c;ZXZpbA==\x1b\\', 'clipboard \\x1b]52;c;ZXZpbA==\\x1b\\'],
    ['hide\x1b[2Aup\rover', 'hide\\x1b[2Aup\\x0dover'],
    ['nul\x00 del\x7f c1\x9b', 'nul\\x00 del\\x7f c1\\x9b'],
    ['\x1b[31mred\x1b[0m stays', '\x1b[31mred\x1b[0m stays'],
  ])('%j → %j', (text, shown) => {
    expect(terminalSafe(text)).toBe(shown);
  });
});

describe('Function: createOutput', () => {
  function stream(isTTY: boolean) {
    const written: string[] = [];
    return {
      written,
      stream: {
        isTTY,
        write: (chunk: string) => written.push(chunk),
      } as unknown as NodeJS.WritableStream,
    };
  }

  it('makes lines and raw text safe on a terminal, and leaves a pipe the bytes', () => {
    // Prepare
    const terminal = stream(true);
    const pipe = stream(false);
    const text = 'gate said \x1b]0;owned\x07';

    // Act
    for (const target of [terminal, pipe]) {
      const output = createOutput(false, target.stream);
      output.line(text);
      output.raw(text);
    }

    // Assess
    expect(terminal.written).toEqual([
      'gate said \\x1b]0;owned\\x07\n',
      'gate said \\x1b]0;owned\\x07',
    ]);
    expect(pipe.written).toEqual([`${text}\n`, text]);
  });
});
