/**
 * The offline judge's user-story rubric: the five gestalt criteria (INVEST, a clear user
 * problem, acceptance criteria, technical specificity, scope), each scored 1–5 by
 * transparent regex rules.
 *
 * The rules deliberately differ from the cheap evaluator's (which rewards an action verb
 * in the title, 3–7 criteria, a file-like technical area and "user can"-style value
 * phrases): they look for a named user with a pain point and an outcome, observable
 * criteria, several kinds of technical reference, and one concern. So there is a real gap
 * for pattern learning to close, and the notes quote the phrases they credited, which the
 * offline proposer turns into a proposal.
 */
import type { JudgeAnswer, StoryDocument } from '../../lambdas/core/schemas/evaluation.js';
import { answerFrom, clampHalf, type Criterion } from './judge-answer.js';
import { allMatches, quote, unique } from './text.js';

const OBSERVABLE =
  /\d|\b(?:returns?|shows?|displays?|responds?|rejects?|accepts?|redirects?|sends?|stores?|saves?|logs?|emits?|receives?|sees?|appears?|contains?|lists?|creates?|deletes?|downloads?|exports?|given|then|error|status|within|is (?:shown|visible|hidden|disabled|enabled|sent|stored))\b/i;
const VAGUE =
  /\b(?:etc|and so on|various|somehow|properly|as needed|user-friendly|seamless(?:ly)?|robust|tbd|nicer?|better|some things?)\b/gi;
const DEPENDENCY =
  /\b(?:depends on|blocked by|after (?:story|ticket) [\w-]+|requires (?:story|ticket) [\w-]+|once [^.]{1,40} is (?:done|merged|finished))/i;
const ROLE =
  /\bas an? (?!i\b)[a-z][\w-]*(?: (?!(?:i|we|who|want|wants|need|needs|would|can|should)\b)[a-z][\w-]*)?/i;
const USER_MENTION =
  /\b(?:users?|customers?|admins?|administrators?|merchants?|operators?|buyers?|sellers?|editors?|members?|accountants?|support agents?)\b/i;
const PAIN =
  /\b(frustrated|annoyed|confused|cannot|can't|unable to|fails? to|failing|broken|too slow|loses?|lost|manually|have to|has to|forced to|waste[sd]?|stuck|complain(?:s|ed)?|errors?|time-consuming|tedious)\b(?:\s+([a-z]+))?/i;
const OUTCOME = /\b(?:so that|in order to|so they can|so she can|so he can|which lets|to avoid)\b/i;

/**
 * Scores a user story on the five gestalt criteria.
 *
 * @example
 * judgeStoryOffline({ id: 's1', title: 'Export invoices', description: 'As an accountant I am frustrated when ...', acceptance_criteria: [...], services: [], source_conversations: [] });
 */
export function judgeStoryOffline(story: StoryDocument): JudgeAnswer {
  const criteria = [
    investOf(story),
    userProblemOf(story),
    acceptanceCriteriaOf(story),
    technicalSpecificityOf(story),
    scopeOf(story),
  ];
  return answerFrom('this user story', criteria);
}

function investOf(story: StoryDocument): Criterion {
  const acs = story.acceptance_criteria;
  if (acs.length === 0)
    return { name: 'INVEST', score: 1, notes: ['no acceptance criteria, so not testable'] };
  let score = 5;
  const notes: string[] = [];
  const observable = acs.filter((ac) => OBSERVABLE.test(ac)).length;
  if (observable < acs.length) {
    score -= observable / acs.length < 0.5 ? 2 : 1;
    notes.push(`${acs.length - observable} of ${acs.length} criteria are not observable`);
  }
  const dependency = DEPENDENCY.exec(`${story.description}\n${acs.join('\n')}`);
  if (dependency) {
    score -= 1;
    notes.push(`depends on other work: ${quote(dependency[0])}`);
  }
  const vague = unique(allMatches(VAGUE, storyText(story)).map((word) => word.toLowerCase()));
  if (vague.length > 0) {
    score -= Math.min(2, vague.length * 0.5);
    notes.push(`vague wording ${vague.map(quote).join(', ')}`);
  }
  if (notes.length === 0) notes.push('stands alone and every criterion is observable');
  return { name: 'INVEST', score: clampHalf(score), notes };
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

function scopeOf(story: StoryDocument): Criterion {
  let score = 5;
  const notes: string[] = [];
  const joined = /\b(?:and|plus|as well as)\b|&|,/.exec(story.title);
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

function storyText(story: StoryDocument): string {
  return `${story.title}\n${story.description}\n${story.acceptance_criteria.join('\n')}`;
}
