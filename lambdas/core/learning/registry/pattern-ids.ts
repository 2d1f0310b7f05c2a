/**
 * Pattern ids from a pattern's type and what it is about, so that two runs teaching the
 * same thing produce the same id and the registry merges them instead of holding both.
 */
import { fnv1a64Hex } from '../../patterns/pattern-set-versions.js';
import type { IssueKey, TaskCategory } from '../../schemas/learning.js';
import { issueKeyText } from '../issue-key.js';

/** 12 hex digits (48 bits): a registry holds thousands of patterns, not millions. */
const shortHash = (text: string): string => fnv1a64Hex(text).slice(0, 12);

/**
 * @example
 * errorPatternId({ class: 'typecheck', signature: '<file> error TS2304: ...' }); // 'err-' + 12 hex
 */
export function errorPatternId(issue: IssueKey): string {
  return `err-${shortHash(issueKeyText(issue))}`;
}

/** @example antiPatternId(issue); // 'anti-' + 12 hex */
export function antiPatternId(issue: IssueKey): string {
  return `anti-${shortHash(issueKeyText(issue))}`;
}

/** One success pattern per category: @example successPatternId('bugfix'); // 'success-bugfix' */
export function successPatternId(category: TaskCategory): string {
  return `success-${category}`;
}

/** @example templatePatternId('typescript', code); // 'tmpl-' + 12 hex */
export function templatePatternId(language: string, code: string): string {
  return `tmpl-${shortHash(`${language}\n${code}`)}`;
}
