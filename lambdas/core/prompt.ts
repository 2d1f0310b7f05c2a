/**
 * The prompt one iteration's fresh agent gets, and what the runner reads back from the
 * agent's final message. The agent starts with no memory: everything it needs to know
 * about the task, the project's learnings and the last failure is in the prompt.
 */
import { codebasePatterns, recentEntries } from './progress-log.js';
import type { Gate } from './schemas/config.js';
import type { IterationPlan } from './schemas/iteration-io.js';
import type { Prd } from './schemas/prd.js';

export interface PromptInput {
  plan: IterationPlan;
  prd: Prd;
  progressText: string;
  gates: readonly Gate[];
  /** The branch the runner checked out, when it differs from prd.json's `branchName`. */
  branchName?: string;
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
 * Renders the iteration prompt as markdown. Sections appear only when they have content:
 * codebase patterns and recent progress come from progress.txt (patterns first), the last
 * failure only when the plan carries one, loop control's sections when the plan has them.
 *
 * @example
 * const prompt = buildIterationPrompt({ plan, prd, progressText, gates: run.config.gates });
 */
export function buildIterationPrompt(input: PromptInput): string {
  const { plan } = input;
  const sections = [
    header(plan),
    taskSection(plan),
    projectSection(input),
    patternsSection(input.progressText),
    recentSection(input.progressText),
    failureSection(plan),
    ...controlSections(plan),
    gatesSection(input.gates),
    rulesSection(input),
  ];
  return `${sections.filter((section) => section !== undefined).join('\n\n')}\n`;
}

/**
 * Loop control's sections (role, recovery, remediation, anti-pattern, prevention, time
 * budget), each present only when prepare-iteration's plan carries it.
 */
function controlSections(plan: IterationPlan): string[] {
  return (plan.control?.sections ?? []).map((section) =>
    [`## ${section.title}`, '', section.body.replace(/^## /gm, '### ')].join('\n'),
  );
}

function header(plan: IterationPlan): string {
  return [
    `# Ralph iteration ${plan.iteration}: ${plan.story.id}`,
    '',
    'You are an autonomous coding agent in a fresh session. You have no memory of earlier',
    'iterations: what they learned is below, the rest is in the git history.',
  ].join('\n');
}

function taskSection(plan: IterationPlan): string {
  const { story } = plan;
  const lines = [
    '## Your task',
    '',
    `**${story.id}: ${story.title}**`,
    '',
    `Priority ${story.priority}. Attempt ${plan.attempt}${plan.attempt > 1 ? ' (earlier attempts did not pass)' : ''}.`,
  ];
  if (story.description.trim() !== '') lines.push('', story.description.trim());
  if (story.acceptanceCriteria.length > 0) {
    lines.push('', '### Acceptance criteria', '');
    for (const criterion of story.acceptanceCriteria) lines.push(`- ${criterion}`);
  }
  if (story.notes && story.notes.trim() !== '') lines.push('', '### Notes', '', story.notes.trim());
  return lines.join('\n');
}

function projectSection({ plan, prd, branchName }: PromptInput): string {
  const lines = ['## Project', '', `- Project: ${prd.project}`];
  if (prd.description.trim() !== '') lines.push(`- Description: ${prd.description.trim()}`);
  lines.push(
    `- Branch: \`${branchName ?? prd.branchName}\` (already checked out by the runner)`,
    `- Stories still open: ${plan.storiesRemaining}; iterations left after this one: ${plan.iterationsLeft}`,
  );
  const stories = prd.userStories;
  if (stories.length <= STORY_LIST_MAX) {
    lines.push('', 'Stories in prd.json:', '');
    for (const story of stories) {
      const mark = story.id === plan.story.id ? '→' : story.passes ? '✓' : ' ';
      lines.push(`- [${mark}] ${story.id}: ${story.title}`);
    }
  } else {
    const passing = stories.filter((story) => story.passes).length;
    lines.push(`- prd.json holds ${stories.length} stories, ${passing} passing.`);
  }
  return lines.join('\n');
}

function patternsSection(progressText: string): string | undefined {
  const patterns = codebasePatterns(progressText);
  if (patterns.length === 0) return undefined;
  const kept: string[] = [];
  let size = 0;
  for (const pattern of patterns) {
    size += pattern.length + 3;
    if (size > PATTERNS_MAX_CHARS) break;
    kept.push(`- ${pattern}`);
  }
  const omitted = patterns.length - kept.length;
  return [
    '## Codebase Patterns',
    '',
    'Reusable learnings from earlier iterations (from progress.txt). Read these first.',
    '',
    ...kept,
    ...(omitted > 0 ? [`- (${omitted} more in progress.txt)`] : []),
  ].join('\n');
}

function recentSection(progressText: string): string | undefined {
  const entries = recentEntries(progressText, RECENT_ENTRY_COUNT);
  if (entries.length === 0) return undefined;
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
  const body = kept.map((entry) => entry.replace(/^## /, '### ')).join('\n\n');
  return ['## Recent progress', '', body].join('\n');
}

function failureSection(plan: IterationPlan): string | undefined {
  const failure = plan.lastFailure;
  if (!failure) return undefined;
  const lines = [
    '## Last failure',
    '',
    `Iteration ${failure.iteration}${failure.taskId ? ` (story ${failure.taskId})` : ''} ended with \`${failure.outcome}\`: ${failure.summary}`,
    'None of its change counted. Fix the cause below rather than repeating the same approach.',
  ];
  const detail = failure.detail.trim();
  if (detail !== '') {
    const shown = truncateMiddle(detail, FAILURE_DETAIL_MAX_CHARS);
    const fence = fenceFor(shown);
    lines.push('', `${fence}text`, shown, fence);
  }
  return lines.join('\n');
}

function gatesSection(gates: readonly Gate[]): string {
  if (gates.length === 0)
    return [
      '## Quality gates',
      '',
      'No quality gates are configured: the runner commits your change if you changed anything.',
    ].join('\n');
  return [
    '## Quality gates',
    '',
    'After you finish, the runner runs these commands itself, in order, from the repository',
    'root. It does not take your word for it: if a blocking gate fails, your change is reset',
    'and the story stays open. Run them yourself and make them pass before you finish.',
    '',
    ...gates.map(
      (gate) =>
        `- \`${gate.name}\` (${gate.blocking ? 'blocking' : 'advisory'}, ${gate.timeoutSeconds}s): \`${gate.command}\``,
    ),
  ].join('\n');
}

function rulesSection({ plan, prd, branchName }: PromptInput): string {
  return [
    '## Rules',
    '',
    `- Implement ONLY story ${plan.story.id}. Do not start other stories.`,
    '- Do not edit prd.json or progress.txt: the runner owns them and discards any edit.',
    '  It marks the story as passing and records your learnings when the gates pass.',
    '- Commit your work or leave it in the working tree; the runner commits it either way.',
    `- Stay on \`${branchName ?? prd.branchName}\`: do not check out, reset, rebase or delete`,
    '  branches. An iteration that leaves another branch checked out, or moves any other',
    '  branch, fails, and the branches are put back.',
    '- Keep changes focused and follow the existing code patterns.',
    '- End your final message with:',
    '',
    '```text',
    '<summary>one line of what you implemented</summary>',
    '<learnings>',
    '- what the next iteration should know (gotchas, where things live)',
    '</learnings>',
    '<codebase-patterns>',
    '- optional: general, reusable patterns of this codebase (not story details)',
    '</codebase-patterns>',
    '```',
    '',
    `- Say ${COMPLETE_PROMISE} only if every story in prd.json passes once this one does.`,
  ].join('\n');
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
