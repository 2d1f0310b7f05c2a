/**
 * The offline judge's user-story rubric, the judge's own (`lambdas/core/judge/rubrics.ts`):
 * a verdict on each QUS criterion one story shows (`qus-verdicts.ts`, with the words that
 * show each defect), then the gestalt criteria — QUS quality, a clear user problem, and,
 * when the story has them, its acceptance criteria and technical detail, and its scope —
 * each scored 1–5 by transparent regex rules. The QUS defects hold the gestalt down: it is
 * the mean of the criteria, at most the QUS quality score (5, less 1.25 per syntactic
 * defect and 0.75 per other one), so a clean one-sentence story scores 4 or more and one
 * with two syntactic defects 2.5 or less.
 *
 * The rules deliberately differ from the cheap evaluator's (which rewards an action verb
 * in the title, 3–7 criteria, a file-like technical area and "user can"-style value
 * phrases, and has QUS detectors of its own that this judge does not use): they look for a
 * named user with a pain point and an outcome, observable criteria, several kinds of
 * technical reference, and one concern. So there is a real gap for pattern learning to
 * close, and the notes quote the phrases they credited or held against the story, which
 * the offline proposer turns into a proposal.
 */
import type {
  CriterionVerdict,
  JudgeAnswer,
  StoryDocument,
} from '../../lambdas/core/schemas/evaluation.js';
import { SYNTACTIC_CRITERIA } from '../../lambdas/core/schemas/qus.js';
import { answerFrom, clampHalf, clampScore, type Criterion } from './judge-answer.js';
import { qusVerdictsOf, storyParts } from './qus-verdicts.js';
import { allMatches, quote, unique } from './text.js';

const OBSERVABLE =
  /\d|\b(?:returns?|shows?|displays?|responds?|rejects?|accepts?|redirects?|sends?|stores?|saves?|logs?|emits?|receives?|sees?|appears?|contains?|lists?|creates?|deletes?|downloads?|exports?|given|then|error|status|within|is (?:shown|visible|hidden|disabled|enabled|sent|stored))\b/i;
const VAGUE =
  /\b(?:etc|and so on|various|somehow|properly|as needed|user-friendly|seamless(?:ly)?|robust|tbd|nicer?|better|some things?)\b/gi;
const ROLE =
  /\bas an? (?!i\b)[a-z][\w-]*(?: (?!(?:i|we|who|want|wants|need|needs|would|can|should)\b)[a-z][\w-]*)?/i;
const USER_MENTION =
  /\b(?:users?|customers?|admins?|administrators?|merchants?|operators?|buyers?|sellers?|editors?|members?|accountants?|support agents?)\b/i;
const PAIN =
  /\b(frustrated|annoyed|confused|cannot|can't|unable to|fails? to|failing|broken|too slow|loses?|lost|manually|have to|has to|forced to|waste[sd]?|stuck|complain(?:s|ed)?|errors?|time-consuming|tedious)\b(?:\s+([a-z]+))?/i;
const OUTCOME =
  /\b(?:so that|in order to|so they can|so she can|so he can|so I can|so we can|which lets|to avoid)\b/i;

/** Gestalt points a QUS defect costs: a syntactic one is a story a team rewrites. */
export const QUS_PENALTY = { syntactic: 1.25, other: 0.75 } as const;

/**
 * Judges a user story on the QUS criteria and the gestalt criteria.
 *
 * @example
 * judgeStoryOffline({ id: 's1', title: '', description: 'As a driver, I want alerts, so that I brake in time.', acceptance_criteria: [], services: [], source_conversations: [] });
 * // { gestalt: 4.3, criteria: [{ criterion: 'well-formed', verdict: 'pass', evidence: '' }, ...], ... }
 */
export function judgeStoryOffline(story: StoryDocument): JudgeAnswer {
  const parts = storyParts(story.description.trim() === '' ? story.title : story.description);
  const verdicts = qusVerdictsOf(parts);
  const qus = qusQualityOf(verdicts);
  const technical = technicalSpecificityOf(story);
  const criteria = [
    qus,
    userProblemOf(story),
    ...(story.acceptance_criteria.length > 0 ? [acceptanceCriteriaOf(story)] : []),
    // A story that names no technical detail is judged on its sentence, not held to one.
    ...(technical.score > 1 ? [technical] : []),
    scopeOf(story, parts.text),
  ];
  return answerFrom('this user story', criteria, { verdicts, ceiling: qus });
}

/** QUS quality: 5, less each defect's penalty; the notes quote each defect's evidence. */
function qusQualityOf(verdicts: readonly CriterionVerdict[]): Criterion {
  const defects = verdicts.filter((verdict) => verdict.verdict === 'defect');
  const penalty = defects.reduce(
    (total, defect) =>
      total +
      (SYNTACTIC_CRITERIA.includes(defect.criterion) ? QUS_PENALTY.syntactic : QUS_PENALTY.other),
    0,
  );
  return {
    name: 'QUS quality',
    score: clampScore(5 - penalty),
    notes:
      defects.length === 0
        ? ['no QUS defect']
        : defects.map((defect) => `${defect.criterion} defect ${quote(clip(defect.evidence))}`),
  };
}

/** Evidence short enough for the proposer to read back as a phrase (it reads 60 characters). */
function clip(evidence: string): string {
  return evidence.length <= 58 ? evidence : evidence.slice(0, 58).replace(/\s+\S*$/, '');
}

function userProblemOf(story: StoryDocument): Criterion {
  const text = `${story.title}\n${story.description}`;
  const notes: string[] = [];
  let score = 1;
  const role = ROLE.exec(text);
  if (role) {
    score += 1;
    notes.push(`names the user ${quote(role[0])}`);
  } else if (USER_MENTION.test(text)) {
    score += 0.5;
    notes.push('mentions users but not who');
  } else notes.push('no user named');
  const pain = PAIN.exec(text);
  if (pain) {
    score += 2;
    notes.push(`pain point ${quote([pain[1], pain[2]].filter(Boolean).join(' '))}`);
  } else notes.push('no pain point stated');
  const outcome = OUTCOME.exec(text);
  if (outcome) {
    score += 1;
    notes.push(`states the outcome ${quote(outcome[0])}`);
  } else notes.push('no outcome stated');
  return { name: 'clear user problem', score: clampHalf(score), notes };
}

function acceptanceCriteriaOf(story: StoryDocument): Criterion {
  const acs = story.acceptance_criteria;
  if (acs.length === 0) return { name: 'acceptance criteria', score: 1, notes: ['none'] };
  const specific = acs.filter(
    (ac) => ac.trim().length >= 25 && OBSERVABLE.test(ac) && allMatches(VAGUE, ac).length === 0,
  ).length;
  let score = 1 + (4 * specific) / acs.length;
  const notes = [`${specific} of ${acs.length} are specific and observable`];
  if (acs.length === 1) {
    score = Math.min(score, 2.5);
    notes.push('a single criterion cannot cover a story');
  }
  if (acs.length > 8) {
    score -= 1;
    notes.push(`${acs.length} criteria are more than one story's worth`);
  }
  if (unique(acs.map((ac) => ac.trim().toLowerCase())).length < acs.length) {
    score -= 0.5;
    notes.push('some criteria repeat');
  }
  const gherkin = acs.filter((ac) => /\bgiven\b/i.test(ac) && /\bthen\b/i.test(ac)).length;
  if (gherkin * 2 >= acs.length) {
    score += 0.5;
    notes.push(`written as ${quote('given')} / ${quote('then')}`);
  }
  return { name: 'acceptance criteria', score: clampHalf(score), notes };
}

function technicalSpecificityOf(story: StoryDocument): Criterion {
  const text = `${story.description}\n${story.acceptance_criteria.join('\n')}\n${story.technical_area ?? ''}`;
  const kinds: string[] = [];
  const path =
    /(?:^|[\s(`'"])((?:[\w.-]+\/)+[\w.-]+)/m.exec(text.replace(/https?:\/\/\S+/g, ''))?.[1] ??
    /\b[\w-]+\.(?:ts|tsx|js|jsx|py|go|rs|java|rb|php|sql|ya?ml|tf)\b/.exec(text)?.[0];
  if (path) kinds.push(`names a file or path ${quote(path)}`);
  const identifier =
    /`([^`\n]{2,60})`/.exec(text)?.[1] ??
    /\b(?:[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+)\b/.exec(text)?.[0];
  if (identifier) kinds.push(`names code ${quote(identifier)}`);
  const endpoint = /\b(?:GET|POST|PUT|PATCH|DELETE) \/\S+|\/api\/\S+/
    .exec(text)?.[0]
    .replace(/[.,;:!?)]+$/, '');
  if (endpoint) kinds.push(`names an endpoint ${quote(endpoint)}`);
  if (story.services.length > 0) kinds.push(`lists services (${story.services.join(', ')})`);
  if (story.technical_area) kinds.push(`gives a technical area ${quote(story.technical_area)}`);
  return {
    name: 'technical specificity',
    score: 1 + Math.min(4, kinds.length),
    notes: kinds.length === 0 ? ['no component, file, endpoint or service named'] : kinds,
  };
}

function scopeOf(story: StoryDocument, storyText: string): Criterion {
  let score = 5;
  const notes: string[] = [];
  // A title that repeats the story is no title of its own to join concerns in.
  const title = story.title.trim() === storyText ? '' : story.title;
  const joined = /\b(?:and|plus|as well as)\b|&|,/.exec(title);
  if (joined) {
    score -= 1;
    notes.push(`title joins concerns with ${quote(joined[0])}`);
  }
  if (/\balso\b/i.test(story.description)) {
    score -= 1;
    notes.push(`description adds more with ${quote('also')}`);
  }
  if (story.services.length > 2) {
    score -= 1;
    notes.push(`spans ${story.services.length} services`);
  }
  if (story.acceptance_criteria.length > 8) {
    score -= 1;
    notes.push('too many criteria for one to three days');
  }
  if (story.description.trim().length < 60) {
    score -= 2;
    notes.push('description too thin to estimate');
  } else if (story.description.length > 1500) {
    score -= 1;
    notes.push('description longer than one concern needs');
  }
  if (notes.length === 0) notes.push('one concern');
  return { name: 'scope', score: clampHalf(score), notes };
}
