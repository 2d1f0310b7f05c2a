/**
 * The output analysis layer (design §3.2): what the agent actually did in an iteration,
 * read from its transcript. Actions (files read and written, commands, tools), behaviour
 * (exploring, stuck in a loop, thrashing), content (errors seen, questions asked,
 * assumptions made) and quality habits (tests written and run, lint, security scan), with a
 * heuristic probability that the agent is stuck.
 */
import { z } from 'zod';
import { parseOrThrow } from '../../shared/validation.js';
import { roundTo } from '../../shared/stats.js';
import { AgentActivitySchema } from '../../schemas/observation.js';
import { errorLines, normaliseErrorLine } from '../../tool-output/error-lines.js';
import { classifyPath } from '../signals/file-kinds.js';
import { isLintCommand, isSecurityScanCommand, isTestCommand } from './commands.js';
import { parseTranscript, type TranscriptEvent } from './parse-stream-json.js';
import { assumptionsIn, questionsTo } from './prose.js';
import {
  collectActions,
  findRepeatedSequence,
  SHELL_TOOLS,
  WRITE_TOOLS,
  type Call,
} from './tool-calls.js';

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

/**
 * The analysis: the activity an iteration record keeps (`AgentActivitySchema`, here with
 * `commandsRun` up to maxCommands and `errorsSeen` up to maxErrors), and the counts and
 * texts behind its flags.
 */
export const AgentOutputAnalysisSchema = AgentActivitySchema.extend({
  /** stream-json lines that were not JSON: skipped. */
  malformedLines: Count,
  readCalls: Count,
  writeCalls: Count,
  /** The back-to-back repeated calls behind isStuckPattern (most repeats; shortest on ties). */
  repeatedSequence: z.object({ calls: z.array(z.string()), repeats: Count }).optional(),
  distinctErrors: Count,
  /** Error lines over all tool results, each counted once per result. */
  errorOccurrences: Count,
  questions: z.array(z.string()),
  assumptionsMade: z.array(z.string()),
});
export type AgentOutputAnalysis = z.infer<typeof AgentOutputAnalysisSchema>;

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

/** The error lines of every output block: the distinct ones, and how often they repeat. */
function errorRepetition(
  events: readonly TranscriptEvent[],
  toolNames: ReadonlyMap<string, string>,
  cwd: string | undefined,
): { distinct: string[]; occurrences: number; rate: number } {
  // Told apart in full; cut only for the report, so errors sharing a long prefix stay distinct.
  const errorOptions = cwd ? { cwd } : {};
  const perBlock = outputBlocks(events, toolNames).map((block) =>
    errorLines(block.text, { ...errorOptions, isError: block.isError }),
  );
  const distinct = [...new Set(perBlock.flat())];
  const occurrences = perBlock.reduce((sum, lines) => sum + lines.length, 0);
  const rate = occurrences === 0 ? 0 : roundTo((occurrences - distinct.length) / occurrences, 6);
  return { distinct, occurrences, rate };
}

/** min(1, the weights of the signals present), rounded so that sums read as written. */
function stuckProbability(
  present: Record<keyof OutputAnalysisConfig['stuckWeights'], boolean>,
  weights: OutputAnalysisConfig['stuckWeights'],
): number {
  const keys = Object.keys(weights) as (keyof typeof weights)[];
  const sum = keys.reduce((total, key) => total + (present[key] ? weights[key] : 0), 0);
  return roundTo(Math.min(1, sum), 6);
}

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
  const actions = collectActions(transcript, cwd);
  const { calls, commands } = actions;
  const errors = errorRepetition(transcript.events, actions.toolNames, cwd);
  const prose = actions.said.join('\n');
  const questions = questionsTo(prose);
  const isExploratory =
    actions.readCalls >= config.exploratoryMinReads &&
    actions.writeCalls <= config.exploratoryMaxWrites;
  const repeated = findRepeatedSequence(
    calls.map((call) => call.key),
    config.stuckMaxSequenceLength,
    config.stuckMinRepeats,
  );
  const isThrashing = thrashes(calls, config);
  return {
    format: transcript.format,
    malformedLines: transcript.malformedLines,
    filesRead: actions.filesRead,
    filesWritten: actions.filesWritten,
    commandsRun: commands.slice(0, config.maxCommands),
    toolsUsed: actions.toolsUsed,
    readCalls: actions.readCalls,
    writeCalls: actions.writeCalls,
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
    errorsSeen: errors.distinct
      .slice(0, config.maxErrors)
      .map((line) => normaliseErrorLine(line, { maxLength: config.maxErrorLength })),
    distinctErrors: errors.distinct.length,
    errorOccurrences: errors.occurrences,
    errorRepetitionRate: errors.rate,
    questionsAsked: questions.length,
    questions: questions.slice(0, config.maxQuestions),
    assumptionsMade: assumptionsIn(prose).slice(0, config.maxAssumptions),
    testsWritten: actions.filesWritten.some((path) => classifyPath(path) === 'test'),
    testsRun: commands.some(isTestCommand),
    lintRun: commands.some(isLintCommand),
    securityScanRun: commands.some(isSecurityScanCommand),
    stuckProbability: stuckProbability(
      {
        stuckPattern: repeated !== undefined,
        thrashing: isThrashing,
        errorRepetition: errors.rate > config.errorRepetitionThreshold,
        exploratory: isExploratory,
        questions: questions.length > 0,
      },
      config.stuckWeights,
    ),
  };
}
