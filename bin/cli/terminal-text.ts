/**
 * Text from agents, gates and repositories reaches the person's terminal through `ralph
 * show`, `status` and error messages. A control sequence in it (an OSC that retitles the
 * window or writes the clipboard, a cursor move that hides a line, a NUL) must arrive as
 * visible text, not as a command to the terminal. What stays: newlines, tabs, and colour
 * (SGR) sequences, which only paint — the same policy as `less -R`.
 */

/** SGR after its ESC: `[ params m`, colour and weight only. */
const SGR_BODY = /^\[[0-9;]*m/;

/**
 * `text` with every control character but newline and tab written out as `\xNN` (C0, DEL,
 * C1) and every escape sequence but SGR colour codes written out too.
 *
 * @example
 * terminalSafe('ok\x1b]0;pwned\x07') // 'ok\\x1b]0;pwned\\x07'
 */
export function terminalSafe(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    const code = char.charCodeAt(0);
    if (char === '\x1b') {
      const sgr = SGR_BODY.exec(text.slice(index + 1, index + 32));
      if (sgr) {
        out += char + sgr[0];
        index += sgr[0].length;
        continue;
      }
    }
    if (char === '\r' && text[index + 1] === '\n') continue;
    const control =
      (code < 0x20 && char !== '\n' && char !== '\t') || (code >= 0x7f && code <= 0x9f);
    out += control ? `\\x${code.toString(16).padStart(2, '0')}` : char;
  }
  return out;
}

/** Whether what goes to `stream` is read by a person at a terminal (then it is made safe). */
export function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
