/**
 * The judge's prompt: a system prompt that fixes its role and answer format, and a user
 * prompt with the rubric, the artefact and the JSON shape to answer in. Artefacts are
 * rendered as their own data (JSON, a diff) inside code fences, with large parts cut to
 * a budget and the cut said out loud.
 */
import { StoryDocumentSchema } from '../schemas/evaluation.js';
import type { Artefact, ChangeArtefact, DocumentArtefact } from '../schemas/evaluation.js';
import { rubricFor, type Rubric } from './rubrics.js';

export interface JudgePrompt {
  system: string;
  user: string;
  rubric: Rubric;
}

/** Character budgets for the parts of an artefact that can be large. */
export const PROMPT_LIMITS = {
  diffChars: 60_000,
  documentChars: 30_000,
  gateOutputChars: 2_000,
  summaryChars: 4_000,
} as const;

/** The line that names the artefact; `local/offline-judge.ts` reads it back. */
export const ARTEFACT_LINE = /^Artefact: kind=(\S+)(?: type=(\S+))? id=(\S+)$/m;

/** Section headings of a change artefact, in prompt order. */
export const CHANGE_SECTIONS = {
  story: '## Story',
  gates: '## Quality gates',
  files: '## Files changed',
  summary: "## Agent's summary",
  diff: '## Diff',
} as const;

export const JUDGE_SYSTEM_PROMPT = [
  'You are a strict, calibrated reviewer scoring work artefacts for a software team.',
  'You judge only what the artefact shows, never what its author may have meant.',
  'A 5 is rare and means nothing needs to change; use the whole scale, decimals allowed.',
  'You answer with one JSON object and nothing else: no prose before or after it, no code fence.',
].join('\n');

const ANSWER_SHAPE =
  '{"gestalt": <number from 1 to 5>, "reasoning": "<2 to 6 sentences citing the evidence>", "strengths": ["<short phrase>"], "weaknesses": ["<short phrase>"]}';

/**
 * The JSON shape the judge answers in for `rubric`: with QUS criteria, the gestalt's shape
 * plus a verdict on each of them.
 *
 * @example
 * answerShape(CHANGE_RUBRIC); // '{"gestalt": <number from 1 to 5>, ...}'
 */
export function answerShape(rubric?: Pick<Rubric, 'qus'>): string {
  if (!rubric?.qus) return ANSWER_SHAPE;
  const names = rubric.qus.map((question) => question.criterion).join(', ');
  return `${ANSWER_SHAPE.slice(0, -1)}, "criteria": [{"criterion": "<one of: ${names}>", "verdict": "pass" or "defect", "evidence": "<for a defect, the words of the story that show it, copied exactly; empty for a pass>"}]}`;
}

/**
 * The system and user prompt for judging one artefact.
 *
 * @example
 * const { system, user } = buildJudgePrompt({
 *   kind: 'document', id: 'story_1', documentType: 'user_story', content: story,
 * });
 * await model.complete({ model, system, messages: [{ role: 'user', content: user }], ... });
 */
export function buildJudgePrompt(artefact: Artefact): JudgePrompt {
  const rubric = rubricFor(artefact);
  const user = [
    `Judge ${rubric.subject} against the rubric below.`,
    '',
    renderRubric(rubric),
    '',
    '# Artefact',
    artefact.kind === 'change' ? renderChange(artefact) : renderDocument(artefact),
    '',
    '# Answer',
    'Weigh every criterion, then give one overall gestalt score from 1 to 5.',
    ...(rubric.qus
      ? [`Give "criteria" one entry for each of the ${rubric.qus.length} QUS criteria, each once.`]
      : []),
    'Answer with exactly one JSON object of this shape and nothing else:',
    answerShape(rubric),
  ].join('\n');
  return { system: JUDGE_SYSTEM_PROMPT, user, rubric };
}

/**
 * The follow-up turn after an answer that could not be used: what was wrong with it, and
 * the shape again (the rubric's, when given).
 *
 * @example
 * buildCorrectionPrompt('gestalt: Too big: expected number to be <=5');
 * buildCorrectionPrompt('criteria: no verdict on atomic', USER_STORY_RUBRIC);
 */
export function buildCorrectionPrompt(problem: string, rubric?: Pick<Rubric, 'qus'>): string {
  return [
    `Your answer could not be used: ${problem}`,
    'Answer again with exactly one JSON object of this shape and nothing else:',
    answerShape(rubric),
  ].join('\n');
}

function renderRubric(rubric: Rubric): string {
  return [
    `# Rubric (${rubric.id})`,
    ...rubric.criteria.map(
      (criterion, index) => `${index + 1}. ${criterion.name}: ${criterion.question}`,
    ),
    ...(rubric.qus ? ['', ...renderQus(rubric.qus, rubric.weighing)] : []),
    '',
    'Scale:',
    ...rubric.scale.map((line) => `- ${line}`),
  ].join('\n');
}

function renderQus(qus: NonNullable<Rubric['qus']>, weighing: string | undefined): string[] {
  return [
    '## QUS criteria (Quality User Story framework)',
    'Give each a verdict, pass or defect, on this story alone; uniform and unique compare stories across a backlog and are not asked here.',
    ...qus.map((question) => `- ${question.criterion}: ${question.question}`),
    ...(weighing ? ['', weighing] : []),
  ];
}

function renderDocument(artefact: DocumentArtefact): string {
  const lines = [`Artefact: kind=document type=${artefact.documentType} id=${artefact.id}`, ''];
  if (artefact.documentType === 'user_story') {
    const story = StoryDocumentSchema.safeParse(artefact.content);
    if (!story.success)
      lines.push('(This document does not have the fields of a user story; judge it as it is.)');
  }
  if (typeof artefact.content === 'string') {
    lines.push(fence(clip(artefact.content, PROMPT_LIMITS.documentChars), 'text'));
  } else {
    lines.push(fence(clip(toJson(artefact.content), PROMPT_LIMITS.documentChars), 'json'));
  }
  return lines.join('\n');
}

function renderChange(artefact: ChangeArtefact): string {
  const { story } = artefact;
  const storyView = {
    id: story.id,
    title: story.title,
    description: story.description,
    acceptanceCriteria: story.acceptanceCriteria,
    ...(story.notes ? { notes: story.notes } : {}),
  };
  const gates = artefact.gates.map((gate) => ({
    name: gate.name,
    blocking: gate.blocking,
    passed: gate.passed,
    exitCode: gate.exitCode,
    timedOut: gate.timedOut,
    durationMs: gate.durationMs,
    outputTail: tail(gate.outputTail, PROMPT_LIMITS.gateOutputChars),
  }));
  const diffLines = artefact.diff === '' ? 0 : artefact.diff.split('\n').length;
  return [
    `Artefact: kind=change id=${artefact.id}`,
    '',
    CHANGE_SECTIONS.story,
    fence(toJson(storyView), 'json'),
    '',
    CHANGE_SECTIONS.gates,
    gates.length === 0 ? '(no gates were configured)' : fence(toJson(gates), 'json'),
    '',
    `${CHANGE_SECTIONS.files} (${artefact.filesChanged.length})`,
    ...(artefact.filesChanged.length === 0
      ? ['(none)']
      : artefact.filesChanged.map((file) => `- ${file}`)),
    '',
    CHANGE_SECTIONS.summary,
    artefact.transcriptSummary.trim() === ''
      ? '(none)'
      : fence(clip(artefact.transcriptSummary, PROMPT_LIMITS.summaryChars), 'text'),
    '',
    `${CHANGE_SECTIONS.diff} (${diffLines} lines)`,
    artefact.diff.trim() === ''
      ? '(empty: the iteration changed nothing)'
      : fence(clip(artefact.diff, PROMPT_LIMITS.diffChars), 'diff'),
  ].join('\n');
}

function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

/**
 * A code fence longer than any run of backticks in `body`, so the body cannot close it
 * early (CommonMark: a closing fence is at least as long as the opening one).
 *
 * @example
 * fence("+const md = '```';", 'diff'); // "````diff\n+const md = '```';\n````"
 */
export function fence(body: string, info: string): string {
  const longestRun = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(Math.max(3, longestRun + 1));
  return `${marks}${info}\n${body.replace(/\n$/, '')}\n${marks}`;
}

/**
 * The text cut to `limit` characters, the cut said out loud.
 *
 * @example
 * clip('abcdef', 3); // 'abc\n[... cut: 3 of 6 characters not shown]'
 */
export function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[... cut: ${text.length - limit} of ${text.length} characters not shown]`;
}

function tail(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `[... ${text.length - limit} earlier characters not shown]\n${text.slice(-limit)}`;
}
