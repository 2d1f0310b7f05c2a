/**
 * User stories as they come to `ralph eval` besides artefact files: Ralph's prd.json, a
 * text with one story per line, a file holding one sentence. Each becomes a `user_story`
 * document whose content has only the fields the input gives: a field it does not give is
 * absent, and the detectors read an absent field as "not present", not as an empty one.
 */
import type { Artefact } from '../schemas/evaluation.js';
import type { Prd } from '../schemas/prd.js';

/**
 * A story given as one sentence ("As a …, I want …").
 *
 * @example
 * sentenceStory('line-3', 'As a user, I want to export my data.');
 * // { kind: 'document', id: 'line-3', documentType: 'user_story', content: { description: 'As a user, …' } }
 */
export function sentenceStory(id: string, sentence: string): Artefact {
  return { kind: 'document', id, documentType: 'user_story', content: { description: sentence } };
}

/**
 * The stories of a prd.json: id = the story's id; its sentence (`description`), title and
 * acceptance criteria as the cheap mode reads a story document.
 *
 * @example
 * prdStories(prd)[0].content; // { title: 'Add priority field', description: 'As a developer, …', acceptance_criteria: [...] }
 */
export function prdStories(prd: Prd): Artefact[] {
  return prd.userStories.map((story) => ({
    kind: 'document',
    id: story.id,
    documentType: 'user_story',
    content: {
      title: story.title,
      description: story.description,
      acceptance_criteria: story.acceptanceCriteria,
    },
  }));
}

/**
 * One story per line, id `line-N` (N its 1-based line); blank lines and lines starting
 * with `#` are skipped.
 *
 * @example
 * lineStories('# backlog\nAs a user, I want x.\n\nAs an admin, I want y.\n').map((s) => s.id);
 * // ['line-2', 'line-4']
 */
export function lineStories(text: string): Artefact[] {
  return text.split(/\r?\n/).flatMap((line, index) => {
    const sentence = line.trim();
    return sentence === '' || sentence.startsWith('#')
      ? []
      : [sentenceStory(`line-${index + 1}`, sentence)];
  });
}
