/**
 * The offline judge: what the local model double answers when no API key is set. It is
 * NOT a model, and says so in every answer. It reads the judge prompt built by
 * `lambdas/core/evaluation/judge/prompt.ts` back into the artefact and scores it with its
 * own transparent heuristics, each criterion on 1–5, the gestalt being their mean.
 *
 * Its heuristics deliberately differ from the cheap evaluator's (which rewards an action
 * verb in the title, 3–7 criteria, a file-like technical area and "user can"-style value
 * phrases): it looks for a named user with a pain point and an outcome, observable
 * criteria, several kinds of technical reference, and one concern. So there is a real gap
 * for pattern learning to close, and its reasoning quotes the phrases it credited, which
 * the offline pattern proposer (the design document's "Pattern Proposal Prompt") turns
 * into a proposal.
 */
import { StoryDocumentSchema } from '../lambdas/core/schemas/evaluation.js';
import type { JudgeAnswer, StoryDocument } from '../lambdas/core/schemas/evaluation.js';
import type { GateResult } from '../lambdas/core/schemas/records.js';
import { ARTEFACT_LINE, CHANGE_SECTIONS } from '../lambdas/core/judge/prompt.js';
import { roundTo } from '../lambdas/core/judge/statistics.js';
import type { ModelServerRequest } from './model-server.js';

export const OFFLINE_JUDGE_LABEL = 'offline judge (a deterministic stand-in, not a model)';
export const OFFLINE_PROPOSER_LABEL = 'offline proposer (a deterministic stand-in, not a model)';

/** What the pattern-proposal prompt asks for. */
export interface PatternProposalAnswer {
  category: string;
  pattern: string;
  rationale: string;
}

/** A change as the judge prompt shows it. */
export interface OfflineChange {
  acceptanceCriteria: string[];
  gates: Pick<GateResult, 'name' | 'blocking' | 'passed' | 'timedOut'>[];
  filesChanged: string[];
  diff: string;
}

interface Criterion {
  name: string;
  score: number;
  /** What the score rests on; quoted phrases are what the proposer can learn from. */
  notes: string[];
}

/**
 * The model double's default responder: the pattern-proposal prompt gets a proposal, the
 * judge prompt a judgement (of the first user message, so a correction turn gets the same
 * answer again), anything else a plain statement that there is no model here.
 *
 * @example
 * const server = await startModelServer({ responder: offlineResponder });
 */
export function offlineResponder(
  request: Pick<ModelServerRequest, 'firstUserText' | 'lastUserText'>,
): string {
  const proposal = proposePatternOffline(request.lastUserText);
  if (proposal) return JSON.stringify(proposal);
  const judgement = judgeOffline(request.firstUserText);
  if (judgement) return JSON.stringify(judgement);
  return `${OFFLINE_JUDGE_LABEL}: there is no language model here; this double answers only the judge prompt and the pattern-proposal prompt.`;
}

/**
 * Judges the artefact in a judge prompt, or returns undefined when the text is not one.
 *
 * @example
 * judgeOffline(buildJudgePrompt(artefact).user)?.gestalt; // e.g. 3.8
 */
export function judgeOffline(prompt: string): JudgeAnswer | undefined {
  const header = ARTEFACT_LINE.exec(prompt);
  if (!header) return undefined;
  const [, kind, type, id] = header;
  const rest = prompt.slice(header.index + header[0].length);
  if (kind === 'change') return judgeChangeOffline(readChange(rest));
  const block = readFence(rest);
  if (type === 'user_story' && block) {
    const story = StoryDocumentSchema.safeParse(safeJson(block.body));
    if (story.success) return judgeStoryOffline(story.data);
  }
  return judgeGenericOffline(type ?? 'document', id ?? '?', block?.body ?? '');
}

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

/**
 * Scores a change on the change rubric's four criteria.
 *
 * @example
 * judgeChangeOffline({ acceptanceCriteria: ['Export returns CSV'], gates: [], filesChanged: ['src/export.ts'], diff });
 */
export function judgeChangeOffline(change: OfflineChange): JudgeAnswer {
  const criteria = [implementsOf(change), testsOf(change), gatesOf(change), changeScopeOf(change)];
  return answerFrom('this change', criteria);
}

function judgeGenericOffline(type: string, id: string, body: string): JudgeAnswer {
  const text = body.trim();
  const structured = /^\s*(?:[-*]|\d+\.|#)/m.test(text) || /[{[]/.test(text.slice(0, 1));
  const score = text === '' ? 1 : text.length < 200 ? 2 : structured ? 4 : 3;
  return answerFrom(`this ${type} document (${id})`, [
    {
      name: 'substance',
      score,
      notes: [
        text === ''
          ? 'empty'
          : `${text.length} characters${structured ? ', structured' : ''}; the offline judge has no rubric heuristics for "${type}"`,
      ],
    },
  ]);
}

function answerFrom(subject: string, criteria: Criterion[]): JudgeAnswer {
  const gestalt = clamp(
    roundTo(criteria.reduce((total, criterion) => total + criterion.score, 0) / criteria.length, 1),
  );
  const clauses = criteria.map(
    (criterion) => `${criterion.name} ${criterion.score}/5 (${criterion.notes.join(', ')})`,
  );
  return {
    gestalt,
    reasoning: `${OFFLINE_JUDGE_LABEL} scored ${subject} ${gestalt} as the mean of ${criteria.length} criteria: ${clauses.join('; ')}.`,
    strengths: criteria
      .filter((criterion) => criterion.score >= 4)
      .map((criterion) => `${criterion.name}: ${criterion.notes.join(', ')}`),
    weaknesses: criteria
      .filter((criterion) => criterion.score <= 3)
      .map((criterion) => `${criterion.name}: ${criterion.notes.join(', ')}`),
  };
}

// --- User stories ---------------------------------------------------------------------

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

// --- Changes --------------------------------------------------------------------------

const STOP_WORDS = new Set([
  'about',
  'above',
  'after',
  'again',
  'against',
  'before',
  'being',
  'below',
  'between',
  'could',
  'every',
  'other',
  'should',
  'their',
  'there',
  'these',
  'those',
  'through',
  'under',
  'until',
  'where',
  'which',
  'while',
  'would',
  'users',
  'shown',
  'given',
  'least',
  'without',
  'within',
]);
const TEST_FILE =
  /(?:^|\/)(?:test|tests|__tests__|spec)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.(?:go|py)$|(?:^|\/)test_[\w-]+\.py$/;
const TEST_CASE = /^\+.*(?:\b(?:it|test|describe)\(|\bdef test_|\bfunc Test)/m;

function implementsOf(change: OfflineChange): Criterion {
  if (change.diff.trim() === '')
    return { name: 'implements the story', score: 1, notes: ['the iteration changed nothing'] };
  const added = change.diff
    .split('\n')
    .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
    .join('\n')
    .toLowerCase();
  const haystack = `${added}\n${change.filesChanged.join('\n').toLowerCase()}`;
  const judged = change.acceptanceCriteria
    .map((ac) => ({ ac, keywords: keywordsOf(ac) }))
    .filter((entry) => entry.keywords.length > 0);
  if (judged.length === 0)
    return {
      name: 'implements the story',
      score: 3,
      notes: ['no criteria to check the diff against'],
    };
  const missing = judged.filter((entry) => !entry.keywords.some((word) => haystack.includes(word)));
  const covered = judged.length - missing.length;
  const notes = [`${covered} of ${judged.length} criteria have their key terms in the added lines`];
  if (missing.length > 0)
    notes.push(`no trace of ${missing.map((entry) => quote(clipText(entry.ac, 60))).join(', ')}`);
  return {
    name: 'implements the story',
    score: clampHalf(1 + (4 * covered) / judged.length),
    notes,
  };
}

function testsOf(change: OfflineChange): Criterion {
  if (change.diff.trim() === '') return { name: 'tests', score: 1, notes: ['no change to test'] };
  const testFiles = change.filesChanged.filter((file) => TEST_FILE.test(file));
  const addsCases = TEST_CASE.test(change.diff);
  if (testFiles.length > 0 && addsCases)
    return {
      name: 'tests',
      score: 5,
      notes: [`adds test cases in ${quote(testFiles[0] as string)}`],
    };
  if (testFiles.length > 0)
    return { name: 'tests', score: 4, notes: [`touches tests ${quote(testFiles[0] as string)}`] };
  if (addsCases) return { name: 'tests', score: 4, notes: ['adds test cases'] };
  return { name: 'tests', score: 2, notes: ['no tests added or changed'] };
}

function gatesOf(change: OfflineChange): Criterion {
  if (change.gates.length === 0)
    return { name: 'gate results', score: 3, notes: ['no gates recorded'] };
  const blockingFailed = change.gates.filter(
    (gate) => gate.blocking && (!gate.passed || gate.timedOut),
  );
  if (blockingFailed.length > 0)
    return {
      name: 'gate results',
      score: 1,
      notes: [`blocking gate failed: ${blockingFailed.map((gate) => quote(gate.name)).join(', ')}`],
    };
  const advisoryFailed = change.gates.filter((gate) => !gate.passed || gate.timedOut);
  if (advisoryFailed.length > 0)
    return {
      name: 'gate results',
      score: 4,
      notes: [`advisory gate failed: ${advisoryFailed.map((gate) => quote(gate.name)).join(', ')}`],
    };
  return { name: 'gate results', score: 5, notes: [`all ${change.gates.length} gates passed`] };
}

function changeScopeOf(change: OfflineChange): Criterion {
  const files = change.filesChanged.length;
  if (change.diff.trim() === '') return { name: 'scope', score: 1, notes: ['nothing changed'] };
  let score = files <= 6 ? 5 : files <= 12 ? 4 : files <= 25 ? 3 : 2;
  const notes = [`${files} files changed`];
  const changedLines = change.diff
    .split('\n')
    .filter((line) => /^[+-]/.test(line) && !/^(?:\+\+\+|---)/.test(line)).length;
  if (changedLines > 1500) {
    score -= 1;
    notes.push(`${changedLines} lines changed`);
  }
  return { name: 'scope', score: clampHalf(score), notes };
}

function keywordsOf(text: string): string[] {
  return unique(
    (text.toLowerCase().match(/[a-z][a-z0-9_]{4,}/g) ?? []).filter((word) => !STOP_WORDS.has(word)),
  );
}

// --- Reading the judge prompt ---------------------------------------------------------

function readChange(text: string): OfflineChange {
  const storyBlock = readFence(sectionAfter(text, CHANGE_SECTIONS.story));
  const story = safeJson(storyBlock?.body ?? '') as { acceptanceCriteria?: unknown } | undefined;
  const gatesBlock = readFence(
    sectionAfter(text, CHANGE_SECTIONS.gates).split(`\n${CHANGE_SECTIONS.files}`)[0] ?? '',
  );
  const gates = safeJson(gatesBlock?.body ?? '[]');
  const filesSection = sectionAfter(text, CHANGE_SECTIONS.files);
  const filesChanged: string[] = [];
  for (const line of filesSection.split('\n').slice(1)) {
    if (!line.startsWith('- ')) break;
    filesChanged.push(line.slice(2));
  }
  const diffBlock = readFence(sectionAfter(text, CHANGE_SECTIONS.diff));
  return {
    acceptanceCriteria: Array.isArray(story?.acceptanceCriteria)
      ? story.acceptanceCriteria.filter((ac): ac is string => typeof ac === 'string')
      : [],
    gates: Array.isArray(gates) ? (gates as OfflineChange['gates']) : [],
    filesChanged,
    diff: diffBlock?.body ?? '',
  };
}

/** The text from the line that starts with `heading` on (empty when there is none). */
function sectionAfter(text: string, heading: string): string {
  const at = text.search(new RegExp(`^${escapeRegExp(heading)}`, 'm'));
  return at === -1 ? '' : text.slice(at);
}

/** The first fenced code block in `text`, closed by a fence as long as its opening one. */
function readFence(text: string): { info: string; body: string } | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^`{3,}\S*$/.test(line));
  if (start === -1) return undefined;
  const opening = lines[start] as string;
  const marks = /^`+/.exec(opening)?.[0] ?? '```';
  const end = lines.findIndex((line, index) => index > start && line === marks);
  if (end === -1) return undefined;
  return { info: opening.slice(marks.length), body: lines.slice(start + 1, end).join('\n') };
}

// --- The pattern-proposal prompt -------------------------------------------------------

const PROPOSAL_MARKER = /pattern is the cheap mode missing|propose a specific, testable pattern/i;
/** Where the proposal prompt shows the artefact as the cheap evaluator reads it. */
const ARTEFACT_TEXT_LINE = /as the cheap evaluator reads it:[^\n]*\n/i;
/**
 * Closed-class words. A credited phrase that opens with two or more of them ("As a
 * parent", "have to scroll") is a frame every story of its kind can share ("as a", "have
 * to") followed by what only this story says; a phrase made of them alone ("so that") is
 * such a frame already.
 */
const FRAME_WORDS = new Set([
  'a',
  'an',
  'as',
  'at',
  'be',
  'by',
  'can',
  'do',
  'for',
  'had',
  'has',
  'have',
  'i',
  'in',
  'is',
  'it',
  'my',
  'not',
  'of',
  'on',
  'order',
  'our',
  'so',
  'that',
  'the',
  'their',
  'to',
  'we',
  'when',
  'which',
  'who',
  'with',
]);

/**
 * What a story rubric commonly credits, for when the judge quotes nothing new: a stated
 * outcome, an observable result, a Given/Then criterion (first one the text holds and no
 * pattern matches; "so that" when none is left, which the proposal step refuses as a
 * duplicate).
 */
const STORY_FALLBACKS = ['so that', 'returns', 'given'];
const QUOTED = /["“]([^"”\n]{2,60})["”]/g;
/** How a judge's note says a quoted phrase cost the artefact points. */
const CRITICISM =
  /\b(?:joins concerns|vague|depends on|adds more|no trace|failed|not observable|too many|too thin|longer than)\b/i;

/**
 * Answers the design document's "Pattern Proposal Prompt" from the judge reasoning it
 * quotes, as a model asked for a pattern that generalises would:
 * - the phrases the judge credited (or, when the cheap mode scored higher, held against
 *   the artefact), strongest criterion first;
 * - each one's general frame before its own wording (see `FRAME_WORDS`): "as a" for "As a
 *   parent", so that one pattern fits every story that names its user, not one story;
 * - when the prompt asks for diversity (after a plateau), a category no live pattern uses
 *   before one they do;
 * - only wording the artefact's text holds (when the prompt shows it), and none that a
 *   current pattern or detected signal already matches, so it never proposes a pattern
 *   twice (a rejected one is not shown in the prompt and may come back: the proposal
 *   step refuses that duplicate).
 * Deterministic; its rationale says it is the offline proposer. Returns undefined when
 * the text is not that prompt.
 *
 * @example
 * proposePatternOffline(proposalPrompt);
 * // { category: 'value_phrases', pattern: 'as a', rationale: 'offline proposer ...' }
 */
export function proposePatternOffline(prompt: string): PatternProposalAnswer | undefined {
  if (!PROPOSAL_MARKER.test(prompt)) return undefined;
  const judgeScore = numberAfter(prompt, /score of\s*(-?\d+(?:\.\d+)?)/i);
  const cheapScore = numberAfter(prompt, /evaluator gave it\s*(-?\d+(?:\.\d+)?)/i);
  const gap =
    numberAfter(prompt, /\bgap:\s*(-?\d+(?:\.\d+)?)/i) ??
    (judgeScore !== undefined && cheapScore !== undefined ? judgeScore - cheapScore : 0);
  const reasoning =
    between(prompt, /expensive mode reasoning:/i, /cheap mode detected these signals:/i) ?? prompt;
  const known = knownMatchersOf(prompt);
  const text = artefactTextOf(prompt);

  const change = /\bthis change\b/i.test(reasoning);
  const fresh = withFrames(candidatesFrom(reasoning)).filter(
    (candidate) => !isCovered(candidate.phrase, known),
  );
  // Wording the artefact holds can fire on it; a quote the judge reworded cannot.
  const candidates =
    text === undefined
      ? fresh
      : fresh.filter((candidate) => containsPhrase(text, candidate.phrase));
  // Only what points the way of the gap: a phrase held against the artefact is no good signal.
  const strength = (candidate: Candidate): number =>
    candidate.score === undefined ? 0 : gap >= 0 ? candidate.score - 3.5 : 3.5 - candidate.score;
  const categoryOf = (candidate: Candidate): string => {
    const positive = candidate.score === undefined ? gap >= 0 : candidate.score >= 4;
    if (change) return positive ? 'good_change_indicators' : 'bad_change_indicators';
    if (!positive) return 'bad_story_indicators';
    return candidate.criterion === 'clear user problem' ? 'value_phrases' : 'good_story_indicators';
  };
  // Recovery after a plateau asks for a category the live patterns do not use yet.
  const used = /category none of them uses yet \(used: ([^)]*)\)/i.exec(prompt)?.[1]?.split(', ');
  const fresher = (candidate: Candidate): number =>
    used === undefined || !used.includes(categoryOf(candidate)) ? 1 : 0;
  const chosen = candidates
    .filter((candidate) => candidate.score === undefined || strength(candidate) > 0)
    .sort(
      (a, b) =>
        fresher(b) - fresher(a) ||
        strength(b) - strength(a) ||
        Number(b.general) - Number(a.general),
    )[0];
  const scores = `the judge scored ${judgeScore ?? '?'} and the cheap evaluator ${cheapScore ?? '?'} (gap ${roundTo(gap, 2)})`;
  if (!chosen) {
    const fallback = change
      ? 'adds test cases'
      : (STORY_FALLBACKS.find(
          (phrase) =>
            !isCovered(phrase, known) && (text === undefined || containsPhrase(text, phrase)),
        ) ?? 'so that');
    return {
      category: change ? 'good_change_indicators' : 'good_story_indicators',
      pattern: fallback,
      rationale: `${OFFLINE_PROPOSER_LABEL}: ${scores}; the judge reasoning quotes no phrase that the current patterns lack, so it proposes ${quote(fallback)}, a signal stories the judge credits commonly share.`,
    };
  }
  const positive = chosen.score === undefined ? gap >= 0 : chosen.score >= 4;
  const category = categoryOf(chosen);
  const verdict = `the judge ${positive ? 'credits' : 'holds against it'} ${quote(chosen.quoted)} under ${chosen.criterion === undefined ? 'its reasoning' : `${chosen.criterion} (${chosen.score}/5)`}`;
  const generalised =
    chosen.phrase === chosen.quoted
      ? ''
      : `; it proposes the frame ${quote(chosen.phrase.toLowerCase())}, which other artefacts of the kind share, rather than this one's own wording`;
  return {
    category,
    pattern: chosen.phrase.toLowerCase(),
    rationale: `${OFFLINE_PROPOSER_LABEL}: ${scores}; ${verdict}${generalised}, and no current pattern or detected signal matches it.`,
  };
}

interface Candidate {
  /** What to propose. */
  phrase: string;
  /** What the judge quoted (the phrase itself, or the phrase it is the frame of). */
  quoted: string;
  criterion?: string;
  /** The criterion's score, 3 at most when the note criticises the phrase; none in free-form reasoning. */
  score?: number;
  /** A frame other artefacts of the kind share, not this artefact's own wording. */
  general: boolean;
}

/**
 * Quoted phrases, with the criterion clause (`name N/5 (...)`) they appear in and its
 * score; a phrase the clause criticises ("title joins concerns with "and"") counts as held
 * against the artefact, whatever the criterion scored.
 */
function candidatesFrom(reasoning: string): Omit<Candidate, 'general'>[] {
  const candidates: Omit<Candidate, 'general'>[] = [];
  const clause = /([A-Za-z][A-Za-z ]*?) (\d(?:\.\d+)?)\/5 \(([^)]*)\)/g;
  for (const match of reasoning.matchAll(clause)) {
    const [, name, score, notes = ''] = match;
    let from = 0;
    for (const quoted of notes.matchAll(QUOTED)) {
      const phrase = (quoted[1] as string).trim();
      const said = notes.slice(from, quoted.index);
      from = quoted.index + quoted[0].length;
      const held = CRITICISM.test(said) ? Math.min(Number(score), 3) : Number(score);
      candidates.push({ phrase, quoted: phrase, criterion: name?.trim(), score: held });
    }
  }
  if (candidates.length > 0) return candidates;
  // Free-form reasoning (a real model's): every quoted phrase, in the gap's direction.
  return quotedIn(reasoning).map((phrase) => ({ phrase, quoted: phrase }));
}

/** Each candidate preceded by its frame, when it opens with one (see `FRAME_WORDS`). */
function withFrames(candidates: readonly Omit<Candidate, 'general'>[]): Candidate[] {
  return candidates.flatMap((candidate) => {
    const words = candidate.phrase.split(/\s+/);
    const lead = words.findIndex((word) => !FRAME_WORDS.has(word.toLowerCase()));
    const frameLength = lead === -1 ? words.length : lead;
    const own = { ...candidate, general: frameLength === words.length };
    if (frameLength < 2 || frameLength === words.length) return [own];
    return [{ ...candidate, phrase: words.slice(0, frameLength).join(' '), general: true }, own];
  });
}

interface KnownMatchers {
  /** Normalised keywords and phrases of the current patterns, and the detected signals. */
  terms: string[];
  regexes: RegExp[];
}

/**
 * What the current patterns and the detected signals match, read from their list lines
 * (`- p_id [good, fired]: term | /regex/ — description`, `- p_id (good): ...`, `- good_ac`).
 */
function knownMatchersOf(prompt: string): KnownMatchers {
  const sections = [
    between(prompt, /cheap mode detected these signals:/i, /current cheap mode patterns:/i) ?? '',
    between(prompt, /current cheap mode patterns:/i, /what pattern is the cheap mode/i) ?? '',
  ];
  const known: KnownMatchers = { terms: [], regexes: [] };
  for (const line of sections.join('\n').split('\n')) {
    if (!line.startsWith('- ')) continue;
    const entry = line.slice(2);
    const listed = /^p_[a-z0-9_]+ (?:\[[^\]]*\]|\((?:good|bad)\)): (.*)$/.exec(entry);
    const what = (listed ? (listed[1] as string) : entry).split(' — ')[0] as string;
    for (const term of what.split(' | ')) {
      const regex = /^\/(.+)\/$/.exec(term);
      if (!regex) known.terms.push(normalise(term));
      else {
        try {
          known.regexes.push(new RegExp(regex[1] as string, 'i'));
        } catch {
          // A pattern this double cannot compile cannot tell it anything.
        }
      }
    }
  }
  return known;
}

/** Whether a current pattern already fires wherever `phrase` occurs. */
function isCovered(phrase: string, known: KnownMatchers): boolean {
  const text = normalise(phrase);
  return (
    known.terms.some((term) => term !== '' && containsPhrase(text, term)) ||
    known.regexes.some((regex) => regex.test(text))
  );
}

/** The artefact's text as the prompt shows it, lower-cased; undefined when it is not shown. */
function artefactTextOf(prompt: string): string | undefined {
  const at = ARTEFACT_TEXT_LINE.exec(prompt);
  if (!at) return undefined;
  const block = readFence(prompt.slice(at.index + at[0].length));
  return block ? normalise(block.body) : undefined;
}

/** Whether `needle` occurs in `haystack` as whole words (both already normalised). */
function containsPhrase(haystack: string, needle: string): boolean {
  const words = normalise(needle);
  return new RegExp(`(?:^|[^a-z0-9])${escapeRegExp(words)}(?:[^a-z0-9]|$)`).test(haystack);
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function quotedIn(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((match) => (match[1] as string).trim());
}

function between(text: string, start: RegExp, end: RegExp): string | undefined {
  const from = start.exec(text);
  if (!from) return undefined;
  const rest = text.slice(from.index + from[0].length);
  const to = end.exec(rest);
  return (to ? rest.slice(0, to.index) : rest).trim();
}

function numberAfter(text: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : undefined;
}

// --- Small helpers --------------------------------------------------------------------

function storyText(story: StoryDocument): string {
  return `${story.title}\n${story.description}\n${story.acceptance_criteria.join('\n')}`;
}

/** A phrase in double quotes, stripped of what would confuse the reasoning's own syntax. */
function quote(phrase: string): string {
  return `"${phrase
    .replace(/["()\n]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}"`;
}

function allMatches(pattern: RegExp, text: string): string[] {
  return [
    ...text.matchAll(
      new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
    ),
  ].map((match) => match[0]);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function clampHalf(score: number): number {
  return clamp(Math.round(score * 2) / 2);
}

function clamp(score: number): number {
  return Math.min(5, Math.max(1, score));
}

function clipText(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
