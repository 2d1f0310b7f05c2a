/**
 * The prompts of an investigation: an analysis pass (the error group, the run context and,
 * from the second pass on, the previous pass's findings) and the one correction of a fix
 * that broke a gate (the gates' output and the analysis). The lists and caps are this
 * code's; the words are the templates' (prompts/templates/investigation*.md).
 */
import { describeGateFailures } from '../shared/gate-failures.js';
import { fencedDetail, gateLine } from '../prompts/iteration-prompt.js';
import type { PromptTemplates } from '../prompts/templates.js';
import type { Gate } from '../schemas/config.js';
import type { StackFrame } from '../schemas/error-event.js';
import type { ErrorGroup } from '../schemas/error-group.js';
import type { GateResult } from '../schemas/gate-result.js';
import type { AnalysisPass } from '../schemas/investigation.js';
import { ANALYSIS_PATH } from './analysis-file.js';

/** Frames shown at most: the application's first, then the libraries'. */
const FRAMES_SHOWN = 30;
/** The error's detail (an exception's value, an alarm's reason) is cut to this. */
const DETAIL_MAX_CHARS = 2_000;
/** A previous pass's reasoning is cut to this (the design's 500 was too short for a cause). */
const SEED_REASONING_MAX_CHARS = 1_000;
const SEED_FILES_SHOWN = 15;

export interface AnalysisPromptInput {
  taskId: string;
  group: ErrorGroup;
  /** This pass's number, and how many there may be. */
  pass: number;
  maxPasses: number;
  /** What earlier errors of the run found ('' when nothing). */
  runContext: string;
  /** The previous pass, when this one follows a low-confidence pass without a fix. */
  previous?: AnalysisPass;
  branch: string;
  gates: readonly Gate[];
  templates: PromptTemplates;
}

/**
 * An analysis pass's prompt.
 *
 * @example
 * buildAnalysisPrompt({ taskId: 'ERR-9b1e…', group, pass: 2, maxPasses: 2, runContext: '', previous, branch, gates, templates })
 */
export function buildAnalysisPrompt(input: AnalysisPromptInput): string {
  const { previous } = input;
  const analysis = previous?.analysis;
  return `${input.templates.render('investigation', {
    taskId: input.taskId,
    pass: input.pass,
    maxPasses: input.maxPasses,
    errorSection: errorSection(input.group, input.templates),
    runContext: input.runContext,
    seed: previous !== undefined,
    seedPass: previous?.pass,
    seedConfidence: analysis?.confidence ?? 'low',
    seedRootCause: analysis ? oneLine(analysis.rootCause) : 'none given',
    seedReasoning: analysis ? cut(oneLine(analysis.reasoning), SEED_REASONING_MAX_CHARS) : '',
    seedFiles: (analysis?.filesExamined ?? []).slice(0, SEED_FILES_SHOWN).join(', '),
    seedNextSteps: (analysis?.suggestedNextSteps ?? []).map((step) => `- ${step}`).join('\n'),
    seedProblem: previous?.problem,
    branch: input.branch,
    gates: input.gates.map(gateLine).join('\n'),
    analysisPath: ANALYSIS_PATH,
  })}\n`;
}

export interface CorrectionPromptInput {
  taskId: string;
  group: ErrorGroup;
  /** The pass whose fix broke the gates. */
  fixed: AnalysisPass;
  /** The gates' results on the fix, and the names of those it broke. */
  gatesAfter: readonly GateResult[];
  broken: readonly string[];
  branch: string;
  gates: readonly Gate[];
  templates: PromptTemplates;
}

/** The correction pass's prompt: what broke, with the gates' output, and the analysis. */
export function buildCorrectionPrompt(input: CorrectionPromptInput): string {
  const analysis = input.fixed.analysis;
  const broken = new Set(input.broken);
  return `${input.templates.render('investigation-correction', {
    taskId: input.taskId,
    errorSection: errorSection(input.group, input.templates),
    rootCause: analysis ? oneLine(analysis.rootCause) : 'not written down',
    confidence: analysis?.confidence ?? 'unknown',
    fixSummary: analysis?.fixSummary,
    changedFiles: input.fixed.changedFiles.join(', '),
    broken: input.broken.join(', '),
    gateFailures: describeGateFailures(input.gatesAfter.filter((gate) => broken.has(gate.name))),
    branch: input.branch,
    gates: input.gates.map(gateLine).join('\n'),
    analysisPath: ANALYSIS_PATH,
  })}\n`;
}

/** The error group as both prompts show it: its latest event, counts, frames, tags, links. */
export function errorSection(group: ErrorGroup, templates: PromptTemplates): string {
  const { latest } = group;
  const frames = orderedFrames(latest.frames);
  const seenFirst = latest.firstSeen ?? group.firstReceivedAt;
  const seenLast = latest.lastSeen ?? group.lastReceivedAt;
  return templates.render('investigation-error', {
    title: oneLine(latest.title),
    level: latest.level,
    source: group.source,
    culprit: latest.culprit,
    detail: latest.detail === undefined ? '' : fencedDetail(cut(latest.detail, DETAIL_MAX_CHARS)),
    counts: counts(group),
    seenBetween: `from ${seenFirst} to ${seenLast}`,
    inAppFrames: frames.inApp.map(frameLine).join('\n'),
    otherFrames: frames.other.map(frameLine).join('\n'),
    framesOmitted: frames.omitted,
    tags: Object.entries(latest.tags)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => `- ${key}: ${value}`)
      .join('\n'),
    webLink: latest.links.web,
    apiLink: latest.links.api,
  });
}

function counts(group: ErrorGroup): string {
  const seen = Math.max(group.seen, latest(group.latest.counts.seen));
  const users = Math.max(group.usersAffected, latest(group.latest.counts.usersAffected));
  return `Seen ${seen} time(s) by the sender, ${users} user(s) affected, ${group.deliveries} delivery(ies) received`;
}

const latest = (count: number | undefined): number => count ?? 0;

/**
 * The frames, innermost first (senders list the throw last), the application's before the
 * libraries', at most FRAMES_SHOWN in all.
 */
export function orderedFrames(frames: readonly StackFrame[]): {
  inApp: StackFrame[];
  other: StackFrame[];
  omitted: number;
} {
  const innermostFirst = [...frames].reverse();
  const inApp = innermostFirst.filter((frame) => frame.inApp).slice(0, FRAMES_SHOWN);
  const room = FRAMES_SHOWN - inApp.length;
  const allOther = innermostFirst.filter((frame) => !frame.inApp);
  const other = allOther.slice(0, room);
  return { inApp, other, omitted: frames.length - inApp.length - other.length };
}

/** `- src/cart.js:42:7 in total` and its source line, when the sender gave one. */
function frameLine(frame: StackFrame): string {
  const file = frame.filename ?? frame.absPath ?? frame.module ?? '?';
  const at = `${file}${frame.lineno === undefined ? '' : `:${frame.lineno}`}${frame.colno === undefined ? '' : `:${frame.colno}`}`;
  const where = `- \`${at}\`${frame.function === undefined ? '' : ` in \`${frame.function}\``}`;
  const line = frame.contextLine?.trim();
  return line ? `${where}\n  \`${line.replace(/`/g, "'")}\`` : where;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
