/**
 * What kind of work a task is, read from its story's words (learned-rules.md filters hints
 * and rules by `task_category`; cross-loop-learning.md keys success patterns on it). The
 * first category whose words the title (then the description) uses wins; `feature` else.
 */
import type { TaskCategory } from '../schemas/learning.js';

const CATEGORY_WORDS: readonly [TaskCategory, RegExp][] = [
  ['investigation', /\b(investigate|investigation|root cause|diagnose|triage)\b/i],
  ['bugfix', /\b(fix|fixes|fixed|bug|bugs|crash|crashes|regression|broken|error|errors)\b/i],
  ['testing', /\b(tests?|testing|coverage|spec|specs|e2e)\b/i],
  ['refactor', /\b(refactor|refactoring|restructure|rename|extract|clean ?up|simplify)\b/i],
  ['docs', /\b(docs?|documentation|readme|changelog|guide|comments?)\b/i],
  [
    'config',
    /\b(config|configuration|ci|pipeline|deploy|deployment|dependency|dependencies|upgrade|build)\b/i,
  ],
];

/**
 * @example
 * taskCategory({ title: 'Fix crash on empty cart', description: '' }); // 'bugfix'
 */
export function taskCategory(story: { title: string; description: string }): TaskCategory {
  for (const text of [story.title, story.description])
    for (const [category, words] of CATEGORY_WORDS) if (words.test(text)) return category;
  return 'feature';
}
