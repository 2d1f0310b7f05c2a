import { parseOrThrow } from './validation.js';
import { ArtefactSchema, StoryDocumentSchema, type Artefact } from '../schemas/evaluation.js';

/**
 * One artefact from a JSON file: either a full artefact (`kind: change | document`) or a
 * bare user story as an evaluation suite writes it, which becomes a `user_story` document.
 *
 * @example
 * readArtefact({ id: 's1', title: 'Add export', description: '...', acceptance_criteria: [] }, 's1.json');
 * // { kind: 'document', id: 's1', documentType: 'user_story', content: {...} }
 */
export function readArtefact(value: unknown, what: string): Artefact {
  if (typeof value === 'object' && value !== null && 'kind' in value)
    return parseOrThrow(ArtefactSchema, value, what);
  const story = parseOrThrow(StoryDocumentSchema, value, what);
  return { kind: 'document', id: story.id, documentType: 'user_story', content: story };
}
