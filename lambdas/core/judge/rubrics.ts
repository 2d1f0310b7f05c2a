/**
 * What the judge scores, per artefact kind: the criteria it weighs and what each score on
 * the 1–5 gestalt scale means. User stories are judged on the Quality User Story framework
 * (QUS, `schemas/qus.ts`), a verdict with its evidence per criterion, so that the judge and
 * the cheap detectors can be compared criterion by criterion; changes use what a reviewer
 * of one iteration's commit asks.
 */
import type { Artefact } from '../schemas/evaluation.js';
import {
  STORY_LEVEL_CRITERIA,
  type QusCriterion,
  type StoryLevelCriterion,
} from '../schemas/qus.js';

export interface RubricCriterion {
  /** Short name, also used in the judge's reasoning. */
  name: string;
  /** The question the judge answers for this criterion. */
  question: string;
}

export interface Rubric {
  /** `change`, `document:user_story`, or `document:*` for any other document type. */
  id: string;
  /** What is judged, in a few words. */
  subject: string;
  criteria: readonly RubricCriterion[];
  /** What each whole score means, 5 first. */
  scale: readonly string[];
  /**
   * The QUS criteria the judge gives a verdict on, each with its evidence (user stories);
   * a rubric with them requires them in the answer.
   */
  qus?: readonly QusQuestion[];
  /** How the verdicts weigh on the gestalt, when the rubric has `qus`. */
  weighing?: string;
}

/** One QUS criterion and its definition, as the judge is asked it. */
export interface QusQuestion {
  criterion: QusCriterion;
  question: string;
}

/**
 * The QUS definitions (Lucassen et al., RE 2016) of the criteria one story can be judged
 * on. Uniform and unique compare stories across a backlog, so they are not asked.
 */
const QUS_QUESTIONS: Record<StoryLevelCriterion, string> = {
  'well-formed':
    'Does the story have at least a role and a means ("As a <role>, I want <means>"), with the benefit, if any, after "so that"?',
  atomic:
    'Does it ask for exactly one feature? A defect joins two or more features or roles ("and", "or", "as well as" between them).',
  minimal:
    'Does it contain nothing beyond role, means and ends? A defect is text in brackets, an example ("e.g."), a second sentence or notes appended to the story.',
  'conceptually-sound':
    'Does the means express a feature and the ends a rationale? A defect is an ends that is another feature, or a means that is a goal.',
  'problem-oriented':
    'Does it state the problem only, not the solution? A defect names how it is to be built (a technology, a technique, a component) in the means.',
  unambiguous:
    'Can it be read only one way? A defect is a vague or superlative term ("user-friendly", "seamless", "efficient", "fast", "etc.") whose meaning a developer would have to guess.',
  'full-sentence': 'Is it one well-formed full sentence, not a fragment, a list or a title?',
};

export const USER_STORY_RUBRIC: Rubric = {
  id: 'document:user_story',
  subject: 'a user story written for a development team',
  criteria: [
    {
      name: 'QUS quality',
      question:
        'Which of the QUS criteria below does the story violate? Give each its verdict and, for a defect, the words of the story that show it.',
    },
    {
      name: 'clear user problem',
      question:
        'Does it say who has the problem, what they need and what they gain once it is solved?',
    },
    {
      name: 'acceptance criteria',
      question:
        'When the story has acceptance criteria: are they specific, observable and testable, and do they cover the story without padding? A story of one sentence has none, which is no defect in itself.',
    },
    {
      name: 'technical specificity',
      question:
        'When the story names a technical area, services or components: are they the real ones, so an engineer knows where to start? A story without them is judged on its sentence.',
    },
    {
      name: 'scope',
      question:
        'Is it one concern that a developer can finish in one to three days, neither a kitchen sink of unrelated issues nor a trivial fragment?',
    },
  ],
  scale: [
    '5 — ready to implement: a developer could start now without asking anything',
    '4 — good: small gaps a developer could fill alone',
    '3 — usable: needs clarification on at least one criterion before work starts',
    '2 — weak: several criteria missing; must be rewritten',
    '1 — unusable: no clear problem, no testable outcome, or several stories in one',
  ],
  qus: STORY_LEVEL_CRITERIA.map((criterion) => ({
    criterion,
    question: QUS_QUESTIONS[criterion],
  })),
  weighing:
    'QUS defects pull the gestalt down: a story without any, whose role, feature and benefit are clear, scores 4 or more; each syntactic defect (well-formed, atomic, minimal) costs about one point, each other defect about half a point, so a story with two syntactic defects scores 2.5 or less. Acceptance criteria and technical detail, when the story has them, move the score within what its defects allow.',
};

export const CHANGE_RUBRIC: Rubric = {
  id: 'change',
  subject: "one iteration's change (a commit) made by a coding agent for one story",
  criteria: [
    {
      name: 'implements the story',
      question:
        'Does the diff do what the story describes, and does it meet each acceptance criterion?',
    },
    {
      name: 'tests',
      question:
        'Does the change add or update tests that exercise the acceptance criteria, rather than only the happy path or nothing at all?',
    },
    {
      name: 'gate results',
      question:
        'Did the quality gates (typecheck, tests, lint) pass? A failed blocking gate means the change does not count.',
    },
    {
      name: 'scope',
      question:
        'Does the change stay within the story, without unrelated edits, drive-by refactors or generated noise?',
    },
  ],
  scale: [
    '5 — mergeable as is: complete, tested, gates green, focused',
    '4 — mergeable after small fixes',
    '3 — partly done: some criteria unmet or untested',
    '2 — mostly not done, or gates failing',
    '1 — nothing useful, or the wrong change',
  ],
};

/**
 * For a document type without a rubric of its own.
 *
 * @example
 * genericDocumentRubric('release_note').id; // 'document:release_note'
 */
export function genericDocumentRubric(documentType: string): Rubric {
  return {
    id: `document:${documentType}`,
    subject: `a document of type "${documentType}"`,
    criteria: [
      { name: 'fit for purpose', question: 'Does the document do the job its type implies?' },
      { name: 'clarity', question: 'Can its reader act on it without asking questions?' },
      { name: 'completeness', question: 'Is anything a reader needs missing?' },
      { name: 'correctness', question: 'Is what it states specific and plausible?' },
    ],
    scale: [
      '5 — excellent: nothing to change',
      '4 — good: minor gaps',
      '3 — usable with clarification',
      '2 — weak: must be rewritten',
      '1 — unusable',
    ],
  };
}

/**
 * The rubric for one artefact.
 *
 * @example
 * rubricFor({ kind: 'document', id: 's1', documentType: 'user_story', content: story }).id;
 * // 'document:user_story'
 */
export function rubricFor(artefact: Artefact): Rubric {
  if (artefact.kind === 'change') return CHANGE_RUBRIC;
  if (artefact.documentType === 'user_story') return USER_STORY_RUBRIC;
  return genericDocumentRubric(artefact.documentType);
}
