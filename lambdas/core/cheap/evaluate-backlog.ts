/**
 * The cheap mode over a set of artefacts scored together. Some QUS criteria are about the
 * backlog, not one story (uniform: the backlog's dominant template; unique: duplicates
 * across it), so the user stories of one evaluation are one backlog.
 */
import { evaluateCheap, type BacklogView } from './evaluate.js';
import { backlogDefects, type BacklogStory } from './qus/detect.js';
import { parseStory } from './qus/story-parts.js';
import { readStoryFields, type StoryFields } from './story-fields.js';
import type { CompiledPatterns } from './types.js';
import type { Artefact, CheapModeResult } from '../schemas/evaluation.js';

/**
 * Scores every artefact in cheap mode, in input order, with the backlog's criteria.
 *
 * @example
 * const results = evaluateBacklog(artefacts, compilePatternSet(set));
 * results[0].defects; // [{ criterion: 'atomic', evidence: 'traffic flow and reduce congestion' }]
 */
export function evaluateBacklog(
  artefacts: readonly Artefact[],
  compiled: CompiledPatterns,
): CheapModeResult[] {
  const stories: (BacklogStory & { fields: StoryFields })[] = [];
  const positions: number[] = [];
  artefacts.forEach((artefact, position) => {
    if (artefact.kind !== 'document' || artefact.documentType !== 'user_story') return;
    const fields = readStoryFields(artefact.content);
    stories.push({ id: artefact.id, fields, parts: parseStory(fields.sentence) });
    positions.push(position);
  });
  const found = backlogDefects(stories, compiled.qus);
  const views = new Map<number, BacklogView>();
  stories.forEach(({ fields, parts }, index) =>
    views.set(positions[index]!, { fields, parts, defects: found.get(index) ?? [] }),
  );
  return artefacts.map((artefact, position) =>
    evaluateCheap(artefact, compiled, views.get(position)),
  );
}
