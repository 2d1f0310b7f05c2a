/**
 * Reading parts back out of a prompt's markdown: a fenced block, the section under a
 * heading, the text between two markers, a number after a label. The prompts are built
 * by the core (`judge/prompt.ts`, `patterns/proposals/prompt.ts`); these readers only
 * assume the shapes those builders write.
 */
import { escapeRegExp } from '../../lambdas/core/cheap/text.js';

/** A fenced code block: its info string (`json`, `diff`, ...) and its body. */
export interface Fence {
  info: string;
  body: string;
}

/**
 * The first fenced code block in `text`, closed by a fence as long as its opening one.
 *
 * @example
 * readFence('intro\n```json\n{}\n```')?.body; // '{}'
 */
export function readFence(text: string): Fence | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^`{3,}\S*$/.test(line));
  if (start === -1) return undefined;
  const opening = lines[start] as string;
  const marks = /^`+/.exec(opening)?.[0] ?? '```';
  const end = lines.findIndex((line, index) => index > start && line === marks);
  if (end === -1) return undefined;
  return { info: opening.slice(marks.length), body: lines.slice(start + 1, end).join('\n') };
}

/** The text from the line that starts with `heading` on (empty when there is none). */
export function sectionAfter(text: string, heading: string): string {
  const at = text.search(new RegExp(`^${escapeRegExp(heading)}`, 'm'));
  return at === -1 ? '' : text.slice(at);
}

/** The trimmed text after `start` up to `end` (or to the end); undefined without `start`. */
export function between(text: string, start: RegExp, end: RegExp): string | undefined {
  const from = start.exec(text);
  if (!from) return undefined;
  const rest = text.slice(from.index + from[0].length);
  const to = end.exec(rest);
  return (to ? rest.slice(0, to.index) : rest).trim();
}

/** The number `pattern` captures first in `text`, or undefined. */
export function numberAfter(text: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : undefined;
}
