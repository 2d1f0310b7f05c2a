/**
 * The words of a pattern's body, from what the agent reported and what it changed: the
 * registry shows them in later prompts, so they are short and say what to do.
 */
import type { IterationRecord } from '../../schemas/iteration.js';

/**
 * What the agent said it learned (its first `max` learnings), else its summary; `undefined`
 * when it said neither.
 */
export function agentLesson(record: IterationRecord, max = Infinity): string | undefined {
  const learnings = (record.agentReport?.learnings ?? [])
    .slice(0, max)
    .map((learning) => oneLine(learning))
    .filter((learning) => learning !== '');
  if (learnings.length > 0) return learnings.join('; ');
  const summary = oneLine(record.agentReport?.summary ?? '');
  return summary === '' ? undefined : summary;
}

/**
 * The files of a change, at most `max` named.
 *
 * @example
 * changedFiles(['a.ts', 'b.ts', 'c.ts', 'd.ts'], 3); // 'a.ts, b.ts, c.ts (+1 more)'
 */
export function changedFiles(files: readonly string[], max: number): string {
  const named = files.slice(0, max).join(', ');
  return files.length > max ? `${named} (+${files.length - max} more)` : named;
}

/**
 * How a passing iteration fixed things: its lesson and the files it changed; `undefined`
 * when it reported nothing and changed nothing.
 *
 * @example
 * fixApproach(passing, 3); // 'Guard the null user before reading email. Changed: src/a.ts'
 */
export function fixApproach(record: IterationRecord, maxFiles: number): string | undefined {
  const lesson = agentLesson(record);
  const files =
    record.filesChanged.length > 0 ? `Changed: ${changedFiles(record.filesChanged, maxFiles)}` : '';
  const parts = [lesson ? sentence(lesson) : '', files].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** Whitespace collapsed: a report's line breaks do not survive into a prompt's list item. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Ends with a full stop unless it already ends a sentence. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * At most `max` characters, cut on a word and marked with an ellipsis.
 *
 * @example
 * clip('Add a null check before reading the property', 20); // 'Add a null check…'
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
