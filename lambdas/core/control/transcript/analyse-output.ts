/**
 * The output analysis layer (design §3.2): what the agent actually did in an iteration,
 * read from its transcript. Actions (files read and written, commands, tools), behaviour
 * (exploring, stuck in a loop, thrashing), content (errors seen, questions asked,
 * assumptions made) and quality habits (tests written and run, lint, security scan), with a
 * heuristic probability that the agent is stuck.
 */
import { z } from 'zod';
import { parseOrThrow } from '../../shared/validation.js';
import { classifyPath, normalisePath } from '../signals/file-kinds.js';
import { isLintCommand, isSecurityScanCommand, isTestCommand } from './commands.js';
import { parseTranscript, type TranscriptEvent } from './parse-stream-json.js';
import { TranscriptFormatSchema } from '../../schemas/observation.js';
import {
  assumptionsIn,
  errorLines,
  normaliseErrorLine,
  questionsTo,
} from '../../tool-output/text-signals.js';

const Count = z.number().int().nonnegative();
const Weight = z.number().min(0).max(1);

/**
 * The design gives no numbers for §3.2; these defaults are ours. The error-repetition
 * weight and rate (0.4 above 0.5) are §3.6's "error messages repeating" values.
 */
export const OutputAnalysisConfigSchema = z.object({
  /** Exploratory: at least this many read-only tool calls (Read, Grep, Glob, LS) ... */
  exploratoryMinReads: z.number().int().positive().default(10),
  /** ... and at most this many writes. */
  exploratoryMaxWrites: Count.default(0),
  /** Stuck: a run of tool calls, at most this long, repeated back to back ... */
  stuckMaxSequenceLength: z.number().int().positive().default(3),
  /** ... at least this many times (calls are equal when name and input are). */
  stuckMinRepeats: z.number().int().min(2).default(3),
  /** Thrashing: between two test runs, at least this many writes ... */
  thrashMinWrites: z.number().int().positive().default(10),
  /** ... to at most this many distinct files. */
  thrashMaxFiles: z.number().int().positive().default(2),
  /** Error repetition: share of error occurrences that repeat an earlier one, above which it counts. */
  errorRepetitionThreshold: Weight.default(0.5),
  maxErrors: z.number().int().positive().default(20),
  maxErrorLength: z.number().int().min(20).default(200),
  maxQuestions: z.number().int().positive().default(10),
  maxAssumptions: z.number().int().positive().default(10),
  maxCommands: z.number().int().positive().default(200),
  /** stuckProbability = min(1, sum of the weights of the signals present). */
  stuckWeights: z
    .object({
      stuckPattern: Weight.default(0.4),
      thrashing: Weight.default(0.3),
      errorRepetition: Weight.default(0.4),
      exploratory: Weight.default(0.2),
      questions: Weight.default(0.1),
    })
    .prefault({}),
  /** The agent's directory, to make paths relative; default: the transcript's init event. */
  cwd: z.string().optional(),
});
export type OutputAnalysisConfig = z.infer<typeof OutputAnalysisConfigSchema>;
export type OutputAnalysisOptions = z.input<typeof OutputAnalysisConfigSchema>;

export const AgentOutputAnalysisSchema = z.object({
  format: TranscriptFormatSchema,
  /** stream-json lines that were not JSON: skipped. */
  malformedLines: Count,
  // Actions
  /** Files the Read tools read, relative to the agent's directory, first reading first. */
  filesRead: z.array(z.string()),
  /** Files Write / Edit / MultiEdit / NotebookEdit wrote, first write first. */
  filesWritten: z.array(z.string()),
  /** Shell commands in order (Bash tool; `$ ` lines of plain output), up to maxCommands. */
  commandsRun: z.array(z.string()),
  /** Tool name → calls. */
  toolsUsed: z.record(z.string(), Count),
  readCalls: Count,
  writeCalls: Count,
  // Behaviour
  isExploratory: z.boolean(),
  isStuckPattern: z.boolean(),
  /** The back-to-back repeated calls behind isStuckPattern (most repeats; shortest on ties). */
  repeatedSequence: z.object({ calls: z.array(z.string()), repeats: Count }).optional(),
  isThrashing: z.boolean(),
  // Content
  /** Distinct error lines (normalised), first seen first, up to maxErrors. */
  errorsSeen: z.array(z.string()),
  distinctErrors: Count,
  /** Error lines over all tool results, each counted once per result. */
  errorOccurrences: Count,
  /** (occurrences − distinct) ÷ occurrences: the share of errors seen before. */
  errorRepetitionRate: z.number().min(0).max(1),
  questionsAsked: Count,
  questions: z.array(z.string()),
  assumptionsMade: z.array(z.string()),
  // Quality habits
  testsWritten: z.boolean(),
  testsRun: z.boolean(),
  lintRun: z.boolean(),
  securityScanRun: z.boolean(),
  stuckProbability: z.number().min(0).max(1),
});
export type AgentOutputAnalysis = z.infer<typeof AgentOutputAnalysisSchema>;

const READ_TOOLS = new Set(['Read', 'NotebookRead', 'Grep', 'Glob', 'LS']);
const FILE_READ_TOOLS = new Set(['Read', 'NotebookRead']);
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
const SHELL_TOOLS = new Set(['Bash']);
const CALL_LABEL_MAX = 80;

interface Call {
  name: string;
  /** Equal calls have equal keys: the name and the whole input, keys sorted. */
  key: string;
  label: string;
  path?: string;
  command?: string;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function relativePath(path: string, cwd: string | undefined): string {
  const normalised = normalisePath(path);
  if (!cwd) return normalised;
  const root = `${normalisePath(cwd)}/`;
  return normalised.startsWith(root) ? normalised.slice(root.length) : normalised;
}

function toCall(event: Extract<TranscriptEvent, { kind: 'tool_use' }>, cwd?: string): Call {
  const { name, input } = event;
  const rawPath = input.file_path ?? input.notebook_path;
  const path = typeof rawPath === 'string' ? relativePath(rawPath, cwd) : undefined;
  const command =
    SHELL_TOOLS.has(name) && typeof input.command === 'string' ? input.command : undefined;
  const subject = command ?? path ?? (typeof input.pattern === 'string' ? input.pattern : '');
  const label = `${name} ${subject}`.trim().slice(0, CALL_LABEL_MAX);
  return {
    name,
    key: `${name}:${stableJson(input)}`,
    label,
    ...(path === undefined ? {} : { path }),
    ...(command === undefined ? {} : { command }),
  };
}

/**
 * The longest back-to-back repetition of a run of at most `maxLength` calls, if one repeats
 * at least `minRepeats` times.
 */
export function findRepeatedSequence(
  keys: readonly string[],
  maxLength: number,
  minRepeats: number,
): { start: number; length: number; repeats: number } | undefined {
  let best: { start: number; length: number; repeats: number } | undefined;
  for (let length = 1; length <= maxLength; length += 1) {
    for (let start = 0; start + length * minRepeats <= keys.length;) {
      // Positions that keep the period `length` from `start` on.
      let end = start + length;
      while (end < keys.length && keys[end] === keys[end - length]) end += 1;
      const repeats = Math.floor((end - start) / length);
      if (repeats >= minRepeats && (!best || repeats > best.repeats))
        best = { start, length, repeats };
      // A later start inside the same periodic stretch cannot repeat more often.
      start += repeats > 1 ? (repeats - 1) * length : 1;
    }
  }
  return best;
}

/** Writes between test runs: some stretch has many writes to few files. */
function thrashes(calls: readonly Call[], config: OutputAnalysisConfig): boolean {
  let writes = 0;
  let files = new Set<string>();
  for (const call of calls) {
    if (call.command !== undefined && isTestCommand(call.command)) {
      writes = 0;
      files = new Set();
    } else if (WRITE_TOOLS.has(call.name)) {
      writes += 1;
      files.add(call.path ?? '');
      if (writes >= config.thrashMinWrites && files.size <= config.thrashMaxFiles) return true;
    }
  }
  return false;
}

/** The texts that hold command output, each to be scanned for errors on its own. */
function outputBlocks(
  events: readonly TranscriptEvent[],
  toolNames: ReadonlyMap<string, string>,
): { text: string; isError: boolean }[] {
  const blocks: { text: string; isError: boolean }[] = [];
  let plain: string[] = [];
  const flush = () => {
    if (plain.length > 0) blocks.push({ text: plain.join('\n'), isError: false });
    plain = [];
  };
  for (const event of events) {
    if (event.kind === 'line') {
      if (event.stream === 'runner') continue;
      // A plain agent's `$ command` starts a new block of output.
      if (event.text.startsWith('$ ')) flush();
      plain.push(event.text);
      continue;
    }
    flush();
    if (event.kind === 'tool_result') {
      const tool = event.toolUseId === undefined ? undefined : toolNames.get(event.toolUseId);
      if (event.isError || (tool !== undefined && SHELL_TOOLS.has(tool)))
        blocks.push({ text: event.text, isError: event.isError });
    } else if (event.kind === 'result' && event.isError)
      blocks.push({ text: event.text || `result: ${event.subtype ?? 'error'}`, isError: true });
  }
  flush();
  return blocks;
}

const unique = (values: readonly string[]): string[] => [...new Set(values)];
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

/**
 * Analyses one iteration's agent output: Claude Code stream-json (or the runner's
 * transcript.jsonl), or plain text, where commands are the `$ ` lines and files are unknown.
 * Bad transcript lines are skipped (and counted), never thrown; bad options throw
 * InvalidInputError.
 *
 * Flags:
 * - isExploratory: readCalls ≥ exploratoryMinReads and writeCalls ≤ exploratoryMaxWrites.
 * - isStuckPattern: some run of 1..stuckMaxSequenceLength tool calls (name and input equal)
 *   repeats back to back at least stuckMinRepeats times.
 * - isThrashing: between two test runs (or the start / end), ≥ thrashMinWrites writes to
 *   ≤ thrashMaxFiles distinct files.
 *
 * stuckProbability = min(1, Σ weight × [signal]) over: isStuckPattern, isThrashing,
 * errorRepetitionRate > errorRepetitionThreshold, isExploratory, questionsAsked > 0.
 *
 * @example
 * const analysis = analyseAgentOutput(transcriptJsonl);
 * if (analysis.stuckProbability >= 0.5) guidance.push(`You repeated: ${analysis.repeatedSequence?.calls.join(' → ')}`);
 */
export function analyseAgentOutput(
  text: string,
  options: OutputAnalysisOptions = {},
): AgentOutputAnalysis {
  const config = parseOrThrow(OutputAnalysisConfigSchema, options, 'output analysis options');
  const transcript = parseTranscript(text);
  const cwd = config.cwd ?? transcript.cwd;
  const events = transcript.events;

  const calls: Call[] = [];
  const toolNames = new Map<string, string>();
  const toolsUsed: Record<string, number> = {};
  const said: string[] = [];
  const plainCommands: string[] = [];
  for (const event of events) {
    if (event.kind === 'tool_use') {
      const call = toCall(event, cwd);
      calls.push(call);
      if (event.id !== undefined) toolNames.set(event.id, event.name);
      toolsUsed[event.name] = (toolsUsed[event.name] ?? 0) + 1;
    } else if (event.kind === 'assistant_text') said.push(event.text);
    else if (event.kind === 'line' && event.stream === 'stdout' && transcript.format === 'plain') {
      if (event.text.startsWith('$ ')) plainCommands.push(event.text.slice(2).trim());
      else said.push(event.text);
    }
  }

  const filesRead = unique(
    calls.flatMap((call) => (FILE_READ_TOOLS.has(call.name) && call.path ? [call.path] : [])),
  );
  const writes = calls.filter((call) => WRITE_TOOLS.has(call.name));
  const filesWritten = unique(writes.flatMap((call) => (call.path ? [call.path] : [])));
  const allCommands = [
    ...calls.flatMap((call) => (call.command === undefined ? [] : [call.command])),
    ...plainCommands,
  ];
  const readCalls = calls.filter((call) => READ_TOOLS.has(call.name)).length;

  // Told apart in full; cut only for the report, so errors sharing a long prefix stay distinct.
  const errorOptions = cwd ? { cwd } : {};
  const perBlock = outputBlocks(events, toolNames).map((block) =>
    errorLines(block.text, { ...errorOptions, isError: block.isError }),
  );
  const distinct = unique(perBlock.flat());
  const errorOccurrences = perBlock.reduce((sum, lines) => sum + lines.length, 0);
  const errorRepetitionRate =
    errorOccurrences === 0 ? 0 : round((errorOccurrences - distinct.length) / errorOccurrences);

  const prose = said.join('\n');
  const questions = questionsTo(prose);
  const assumptions = assumptionsIn(prose);

  const isExploratory =
    readCalls >= config.exploratoryMinReads && writes.length <= config.exploratoryMaxWrites;
  const repeated = findRepeatedSequence(
    calls.map((call) => call.key),
    config.stuckMaxSequenceLength,
    config.stuckMinRepeats,
  );
  const isThrashing = thrashes(calls, config);

  const weights = config.stuckWeights;
  const stuckProbability = round(
    Math.min(
      1,
      (repeated ? weights.stuckPattern : 0) +
        (isThrashing ? weights.thrashing : 0) +
        (errorRepetitionRate > config.errorRepetitionThreshold ? weights.errorRepetition : 0) +
        (isExploratory ? weights.exploratory : 0) +
        (questions.length > 0 ? weights.questions : 0),
    ),
  );

  return {
    format: transcript.format,
    malformedLines: transcript.malformedLines,
    filesRead,
    filesWritten,
    commandsRun: allCommands.slice(0, config.maxCommands),
    toolsUsed,
    readCalls,
    writeCalls: writes.length,
    isExploratory,
    isStuckPattern: repeated !== undefined,
    ...(repeated
      ? {
          repeatedSequence: {
            calls: calls
              .slice(repeated.start, repeated.start + repeated.length)
              .map((c) => c.label),
            repeats: repeated.repeats,
          },
        }
      : {}),
    isThrashing,
    errorsSeen: distinct
      .slice(0, config.maxErrors)
      .map((line) => normaliseErrorLine(line, { maxLength: config.maxErrorLength })),
    distinctErrors: distinct.length,
    errorOccurrences,
    errorRepetitionRate,
    questionsAsked: questions.length,
    questions: questions.slice(0, config.maxQuestions),
    assumptionsMade: assumptions.slice(0, config.maxAssumptions),
    testsWritten: filesWritten.some((path) => classifyPath(path) === 'test'),
    testsRun: allCommands.some(isTestCommand),
    lintRun: allCommands.some(isLintCommand),
    securityScanRun: allCommands.some(isSecurityScanCommand),
    stuckProbability,
  };
}
