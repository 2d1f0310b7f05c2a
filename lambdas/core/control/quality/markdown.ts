/** Markdown that stays intact whatever text it quotes (tool output holds backticks). */

function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

/**
 * `text` as inline code, with a fence longer than any backtick run inside it.
 *
 * @example
 * inlineCode('a `b` c') // '`` a `b` c ``'
 */
export function inlineCode(text: string): string {
  const single = text.replace(/\s*\n\s*/g, ' ');
  const fence = '`'.repeat(longestBacktickRun(single) + 1);
  const pad = single.startsWith('`') || single.endsWith('`') || fence.length > 1 ? ' ' : '';
  return `${fence}${pad}${single}${pad}${fence}`;
}

/**
 * `text` as a fenced block, with a fence longer than any backtick run inside it.
 *
 * @example
 * codeBlock('error TS2322') // '```\nerror TS2322\n```'
 */
export function codeBlock(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}\n${text.replace(/\n+$/, '')}\n${fence}`;
}
