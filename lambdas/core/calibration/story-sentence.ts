import { readStoryFields } from '../cheap/story-fields.js';
import type { Artefact } from '../schemas/evaluation.js';

/**
 * The sentence of a user story ("As a …, I want …"), by which a label row without an id is
 * matched to it: a document's sentence as the cheap mode reads it (its `description`, else
 * its title), a change's story's description; trimmed.
 *
 * @example
 * storySentence({ kind: 'document', id: 'line-1', documentType: 'user_story',
 *   content: { description: ' As a user, I want… ' } }); // 'As a user, I want…'
 */
export function storySentence(artefact: Artefact): string {
  const description =
    artefact.kind === 'change'
      ? artefact.story.description
      : readStoryFields(artefact.content).sentence;
  return description.trim();
}
