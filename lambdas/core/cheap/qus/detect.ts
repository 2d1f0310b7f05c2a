/**
 * Every QUS detector a pattern set turns on, over one story or a backlog of them. A
 * detector that cannot judge a story (atomic or uniform on a text without a role and a
 * means) stays silent: the well-formed defect already says what is wrong.
 */
import { detectAtomic } from './atomic.js';
import { detectMinimal } from './minimal.js';
import { partText, type StoryParts } from './story-parts.js';
import { dominantTemplate, detectUniform } from './uniform.js';
import { findDuplicates } from './unique.js';
import { detectFullSentence, detectWellFormed } from './well-formed.js';
import type { Defect, QusCriterion, QusSettings } from '../../schemas/qus.js';

/** A story of the backlog: its id and its parsed sentence. */
export interface BacklogStory {
  readonly id: string;
  readonly parts: StoryParts;
}

/** Whether the story has the parts the structural criteria read. */
const structured = (parts: StoryParts): boolean => parts.role !== null && parts.means !== null;

/** The criteria only a backlog can judge: a story alone has no template to leave, no twin. */
const BACKLOG_CRITERIA: ReadonlySet<QusCriterion> = new Set(['uniform', 'unique']);

/** A criterion judged on a story, with the weight it carries in the score. */
export interface JudgedCriterion {
  readonly criterion: QusCriterion;
  readonly weight: number;
}

/** Per settings object: the four lists (structured or not, in a backlog or not), built once. */
const judgedCache = new WeakMap<QusSettings, Map<string, readonly JudgedCriterion[]>>();

/**
 * The criteria a pattern set's detectors can judge on this story, defect or not, each with
 * its weight (its penalty): what the score weighs. Without its backlog (`inBacklog` false:
 * one artefact scored alone), uniform and unique are not judged, so they neither earn nor
 * cost anything. The lists depend on the settings and two flags only, so they are built
 * once per settings object and shared.
 *
 * @example
 * judgedCriteria(parseStory('Make login faster'), settings, true).map((c) => c.criterion);
 * // ['well-formed', 'minimal', 'full-sentence', 'unique']
 */
export function judgedCriteria(
  parts: StoryParts,
  settings: QusSettings,
  inBacklog: boolean,
): readonly JudgedCriterion[] {
  const isStructured = structured(parts);
  const key = `${isStructured}:${inBacklog}`;
  let lists = judgedCache.get(settings);
  if (!lists) judgedCache.set(settings, (lists = new Map()));
  let list = lists.get(key);
  if (!list) {
    list = settings.detectors
      .filter(
        (criterion) =>
          (inBacklog || !BACKLOG_CRITERIA.has(criterion)) &&
          (isStructured || (criterion !== 'atomic' && criterion !== 'uniform')),
      )
      .map((criterion) => ({
        criterion,
        weight: settings.penalties[criterion] ?? settings.defaultPenalty,
      }));
    lists.set(key, list);
  }
  return list;
}

/**
 * The defects of one story that need no backlog (well-formed, atomic, minimal, full-sentence).
 *
 * @example
 * storyDefects(parseStory('As a planner, I want A and B.'), settings);
 * // [{ criterion: 'atomic', evidence: 'want A and B' }]
 */
export function storyDefects(parts: StoryParts, settings: QusSettings): Defect[] {
  // Runs once per story on the hot path: `includes` on the few criteria, no set or closure
  // allocated per call.
  const on = settings.detectors;
  const found = [
    on.includes('well-formed') ? detectWellFormed(parts) : null,
    on.includes('atomic') && structured(parts) ? detectAtomic(parts, settings) : null,
    on.includes('minimal') ? detectMinimal(parts.text) : null,
    on.includes('full-sentence') ? detectFullSentence(parts.text) : null,
  ];
  return found.filter((defect): defect is Defect => defect !== null);
}

/**
 * The backlog's defects (uniform, unique) per story index: a backlog is the stories scored
 * together.
 *
 * @example
 * backlogDefects(stories, settings).get(3); // [{ criterion: 'unique', evidence: '…', relatedId: 'US-7' }]
 */
export function backlogDefects(
  stories: readonly BacklogStory[],
  settings: QusSettings,
): Map<number, Defect[]> {
  const on = new Set(settings.detectors);
  const found = new Map<number, Defect[]>();
  const add = (index: number, defect: Defect): void => {
    const list = found.get(index);
    if (list) list.push(defect);
    else found.set(index, [defect]);
  };
  if (on.has('uniform')) {
    const dominant = dominantTemplate(
      stories.filter((story) => structured(story.parts)).map((story) => story.parts.template),
      settings.uniformShare,
    );
    stories.forEach((story, index) => {
      if (!structured(story.parts)) return;
      const defect = detectUniform(story.parts.template, dominant);
      if (defect) add(index, defect);
    });
  }
  if (on.has('unique')) {
    const compared = stories.map((story) => ({
      id: story.id,
      text: story.parts.means
        ? story.parts.text.slice(
            story.parts.means.start,
            story.parts.ends?.end ?? story.parts.means.end,
          )
        : story.parts.text,
    }));
    for (const [index, duplicate] of findDuplicates(compared, settings.nearDuplicateSimilarity))
      add(index, {
        criterion: 'unique',
        evidence:
          partText(stories[index]!.parts, stories[index]!.parts.means) || compared[index]!.text,
        relatedId: duplicate.otherId,
      });
  }
  return found;
}
