/**
 * The prompt one iteration's fresh agent gets, and what the runner reads back from the
 * agent's final message. The agent starts with no memory: everything it needs to know
 * about the task, the project's learnings and the last failure is in the prompt.
 */
import { codebasePatterns, recentEntries } from '../ralph/progress-log.js';
import type { PromptTemplates } from './templates.js';
import type { Gate } from '../schemas/config.js';
import type { IterationPlan } from '../schemas/plan.js';
import type { Prd } from '../schemas/prd.js';

export interface PromptInput {
  plan: IterationPlan;
  prd: Prd;
  progressText: string;
  gates: readonly Gate[];
  /** The branch the runner checked out, when it differs from prd.json's `branchName`. */
  branchName?: string;
  /** What was learned before, rendered (learning/render-learning.ts); none for a control task. */
  learningSections?: string;
  templates: PromptTemplates;
}

/** How much of progress.txt's recent history goes into a prompt. */
export const RECENT_ENTRY_COUNT = 3;
export const RECENT_ENTRIES_MAX_CHARS = 6_000;
/** The last failure's detail (gate output, agent errors) is cut to this many characters. */
export const FAILURE_DETAIL_MAX_CHARS = 6_000;
/** Patterns beyond this are left out (oldest first kept: they were consolidated first). */
const PATTERNS_MAX_CHARS = 6_000;
/** Stories listed by id and title; a longer prd is summarised by count. */
const STORY_LIST_MAX = 40;

export const COMPLETE_PROMISE = '<promise>COMPLETE</promise>';

/**
 * Renders the iteration prompt from `prompts/templates/iteration.md`. Sections appear only
 * when they have content: codebase patterns and recent progress come from progress.txt
 * (patterns first), the last failure only when the plan carries one, loop control's sections
 * when the plan has them. Lists and size budgets are this code's; the wording is the template's.
 *
 * @example
 * const prompt = buildIterationPrompt({ plan, prd, progressText, gates: run.config.gates, templates });
 */
export function buildIterationPrompt(input: PromptInput): string {
  const { plan, prd } = input;
  const { story } = plan;
  const failure = plan.lastFailure;
  const stories = prd.userStories;
  const listed = stories.length <= STORY_LIST_MAX;
  const patterns = patternLines(input.progressText);
  const remediated = (plan.control?.sections ?? []).some(
    (section) => section.kind === 'remediation',
  );
  const prompt = input.templates.render('iteration', {
    iteration: plan.iteration,
    storyId: story.id,
    storyTitle: story.title,
    priority: story.priority,
    attempt: plan.attempt,
    retried: plan.attempt > 1,
    description: story.description.trim(),
    acceptanceCriteria: story.acceptanceCriteria.map((criterion) => `- ${criterion}`).join('\n'),
    notes: story.notes?.trim(),
    project: prd.project,
    projectDescription: prd.description.trim(),
    branch: input.branchName ?? prd.branchName,
    storiesRemaining: plan.storiesRemaining,
    iterationsLeft: plan.iterationsLeft,
    storyList: listed ? stories.map((entry) => storyLine(entry, story.id)).join('\n') : '',
    storyCount: stories.length,
    passingCount: stories.filter((entry) => entry.passes).length,
    codebasePatterns: patterns.kept.join('\n'),
    patternsOmitted: patterns.omitted,
    learningSections: input.learningSections,
    recentProgress: recentProgress(input.progressText),
    lastFailure: failure !== undefined,
    failedIteration: failure?.iteration,
    failedStoryId: failure?.taskId,
    failedOutcome: failure?.outcome,
    failedSummary: failure?.summary,
    // The remediation section shows the failing gates' output: once is enough.
    failureDetail: failure && !remediated ? fencedDetail(failure.detail) : undefined,
    detailBelow: failure !== undefined && remediated,
    evidenceRef: failure?.evidenceRef,
    controlSections: controlSections(plan),
    gates: input.gates.map(gateLine).join('\n'),
    completePromise: COMPLETE_PROMISE,
  });
  return `${prompt}\n`;
}

/**
 * Loop control's sections (role, recovery, remediation, anti-pattern, prevention, time
 * budget), each present only when prepare-iteration's plan carries it.
 */
function controlSections(plan: IterationPlan): string {
  return (plan.control?.sections ?? [])
    .map((section) =>
      [`## ${section.title}`, '', section.body.replace(/^## /gm, '### ')].join('\n'),
    )
    .join('\n\n');
}

function storyLine(entry: Prd['userStories'][number], current: string): string {
  const mark = entry.id === current ? '→' : entry.passes ? '✓' : ' ';
  return `- [${mark}] ${entry.id}: ${entry.title}`;
}

/**
 * Patterns beyond the budget are left out (oldest first kept: they were consolidated first);
 * a first pattern larger than the whole budget is cut to it rather than shown as nothing.
 */
function patternLines(progressText: string): { kept: string[]; omitted: number } {
  const patterns = codebasePatterns(progressText);
  const kept: string[] = [];
  let size = 0;
  for (const pattern of patterns) {
    size += pattern.length + 3;
    if (size > PATTERNS_MAX_CHARS) break;
    kept.push(`- ${pattern}`);
  }
  const [first] = patterns;
  if (kept.length === 0 && first !== undefined)
    kept.push(`- ${truncateMiddle(first, PATTERNS_MAX_CHARS - 3)}`);
  return { kept, omitted: patterns.length - kept.length };
}

function recentProgress(progressText: string): string {
  const entries = recentEntries(progressText, RECENT_ENTRY_COUNT);
  // Newest entries matter most: drop from the oldest until the budget fits.
  const kept: string[] = [];
  let size = 0;
  for (const entry of [...entries].reverse()) {
    const text =
      entry.length > RECENT_ENTRIES_MAX_CHARS
        ? truncateMiddle(entry, RECENT_ENTRIES_MAX_CHARS)
        : entry;
    if (kept.length > 0 && size + text.length > RECENT_ENTRIES_MAX_CHARS) break;
    kept.unshift(text);
    size += text.length;
  }
  // Entry headings are `## `; nest them under this section's heading.
  return kept.map((entry) => entry.replace(/^## /, '### ')).join('\n\n');
}

export function fencedDetail(detail: string): string {
  const trimmed = detail.trim();
  if (trimmed === '') return '';
  const shown = truncateMiddle(trimmed, FAILURE_DETAIL_MAX_CHARS);
  const fence = fenceFor(shown);
  return `${fence}text\n${shown}\n${fence}`;
}

export function gateLine(gate: Gate): string {
  return `- \`${gate.name}\` (${gate.blocking ? 'blocking' : 'advisory'}, ${gate.timeoutSeconds}s): \`${gate.command}\``;
}

export interface AgentReport {
  summary?: string;
  learnings: string[];
  codebasePatterns: string[];
  /** The agent said `<promise>COMPLETE</promise>`: a claim, never a verdict. */
  claimedComplete: boolean;
}

/**
 * Reads the tags of the prompt's final-message contract from an agent's output: plain text,
 * Claude Code `--output-format stream-json` lines, or the runner's transcript.jsonl. In
 * JSON lines only what the agent said counts (assistant text blocks, the final `result`,
 * the runner's wrapped stdout text), never tool input or output: a file the agent read may
 * well contain the tags. The last occurrence of each tag wins.
 *
 * @example
 * const report = parseAgentReport(agentStdout);
 * if (report.claimedComplete) log('agent claims the prd is done');
 */
export function parseAgentReport(transcriptText: string): AgentReport {
  const text = agentText(transcriptText);
  const summary = lastTag(text, 'summary');
  const learnings = lastTag(text, 'learnings');
  const patterns = lastTag(text, 'codebase-patterns');
  const oneLineSummary = summary?.replace(/\s+/g, ' ').trim();
  return {
    ...(oneLineSummary ? { summary: oneLineSummary } : {}),
    learnings: learnings === undefined ? [] : bullets(learnings),
    codebasePatterns: patterns === undefined ? [] : bullets(patterns),
    claimedComplete: text.includes(COMPLETE_PROMISE),
  };
}

/** The text the agent said, in order, one piece per line or text block. */
function agentText(transcriptText: string): string {
  const pieces: string[] = [];
  for (const line of transcriptText.split(/\r?\n/)) {
    const event = jsonObject(line);
    if (event === undefined) {
      pieces.push(line);
      continue;
    }
    if (event.type === 'assistant') {
      const message = event.message as { content?: unknown } | undefined;
      const content = message?.content;
      if (typeof content === 'string') pieces.push(content);
      else if (Array.isArray(content))
        for (const block of content as { type?: unknown; text?: unknown }[])
          if (block?.type === 'text' && typeof block.text === 'string') pieces.push(block.text);
    } else if (event.type === 'result' && typeof event.result === 'string') {
      pieces.push(event.result);
    } else if (
      event.type === 'text' &&
      event.stream === 'stdout' &&
      typeof event.text === 'string'
    ) {
      pieces.push(event.text);
    }
  }
  return pieces.join('\n');
}

function jsonObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function lastTag(text: string, tag: string): string | undefined {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'gi');
  let last: string | undefined;
  for (const match of text.matchAll(pattern)) last = match[1];
  return last;
}

/** Bullet lines of a tag's body; a body without markers counts line by line. */
function bullets(body: string): string[] {
  return body
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^(?:[-*+•]|\d+[.)])\s+/, '')
        .trim(),
    )
    .filter((line) => line !== '');
}

/** Keeps the head and (more of) the tail, where errors usually are. */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = `\n[… ${text.length - maxChars} characters omitted …]\n`;
  const room = Math.max(0, maxChars - marker.length);
  const head = Math.floor(room / 3);
  return `${text.slice(0, head)}${marker}${text.slice(text.length - (room - head))}`;
}

/** A code fence longer than any backtick run in `text`, so the text cannot close it. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}
