/**
 * The text the cheap mode matches an artefact's patterns against, so that a proposed or
 * mined phrase is looked for where it will later have to fire. Mirrors the choice in
 * `cheap/evaluate.ts` (which keeps it private).
 */
import { scoreChange } from '../cheap/change-heuristics.js';
import { documentText, readStoryFields, storyText } from '../cheap/story-fields.js';
import type { Artefact } from '../schemas/evaluation.js';

/**
 * The pattern text of one artefact: a change's added lines, summary and paths; a user
 * story's fields; any other document's strings.
 *
 * @example
 * patternText({ kind: 'document', id: 's1', documentType: 'user_story', content: story });
 * // 'Export invoices as CSV\nAs an accountant I am frustrated when ...'
 */
export function patternText(artefact: Artefact): string {
  if (artefact.kind === 'change') return scoreChange(artefact).text;
  if (artefact.documentType === 'user_story') return storyText(readStoryFields(artefact.content));
  return documentText(artefact.content);
}
