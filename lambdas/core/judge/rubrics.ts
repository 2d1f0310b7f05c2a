/**
 * What the judge scores, per artefact kind: the criteria it weighs and what each score on
 * the 1–5 gestalt scale means. User-story documents use the design document's gestalt
 * criteria; changes use what a reviewer of one iteration's commit asks.
 */
import type { Artefact } from '../schemas/evaluation.js';

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
}

export const USER_STORY_RUBRIC: Rubric = {
  id: 'document:user_story',
  subject: 'a user story written for a development team',
  criteria: [
    {
      name: 'INVEST',
      question:
        'Is the story Independent, Negotiable, Valuable, Estimable, Small and Testable? Does it stand alone without waiting for other stories?',
    },
    {
      name: 'clear user problem',
      question:
        'Does it say who has the problem, what hurts today and what the user gains once it is solved?',
    },
    {
      name: 'acceptance criteria',
      question:
        'Are the acceptance criteria specific, observable and testable, and do they cover the story without padding?',
    },
    {
      name: 'technical specificity',
      question:
        'Does it name the real components, services, files, endpoints or data involved, so an engineer knows where to start?',
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
