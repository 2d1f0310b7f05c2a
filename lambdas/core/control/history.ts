/**
 * What loop control remembers of each iteration, and the few questions every decision
 * asks of that history. A history is oldest first; "the window" is its latest entries.
 */
import { z } from 'zod';
import { IterationOutcomeSchema } from '../schemas/outcome.js';

/** The agent roles of the design's section 3.8; an iteration runs in one of them. */
export const AGENT_MODES = [
  'planner',
  'implementer',
  'tester',
  'reviewer',
  'debugger',
  'architect',
] as const;
export const AgentModeSchema = z.enum(AGENT_MODES);
export type AgentMode = z.infer<typeof AgentModeSchema>;

const tally = () => z.number().int().nonnegative().optional();

export const IterationSummarySchema = z
  .object({
    iteration: z.number().int().positive(),
    taskId: z.string().min(1),
    mode: AgentModeSchema,
    outcome: IterationOutcomeSchema,
    /** The change counted: its gates passed and it was committed. */
    committed: z.boolean(),
    /** Progress short of a commit (the progress signals' judgement). */
    meaningfulChange: z.boolean(),
    /** {@link errorSignature} of the gate output or agent error, when there was one. */
    errorSignature: z.string().min(1).optional(),
    testsPassed: tally(),
    testsFailed: tally(),
    testsTotal: tally(),
    warnings: tally(),
    /** Files the iteration changed that were not committed. */
    filesTouchedUncommitted: z.array(z.string().min(1)).default([]),
    endedAt: z.iso.datetime({ offset: true }),
  })
  .superRefine((entry, ctx) => {
    const { testsPassed = 0, testsFailed = 0, testsTotal } = entry;
    if (testsTotal !== undefined && testsPassed + testsFailed > testsTotal)
      ctx.addIssue({
        code: 'custom',
        path: ['testsTotal'],
        message: 'testsPassed + testsFailed exceeds testsTotal',
      });
  });
export type IterationSummary = z.infer<typeof IterationSummarySchema>;
export type IterationSummaryInput = z.input<typeof IterationSummarySchema>;
export type History = readonly IterationSummary[];

/** A line that reports a problem, in the output of compilers, test runners, linters and shells. */
const ERROR_LINE =
  /\b(error|errors|err|fail|failed|failure|fatal|exception|panic|panicked|assert\w*|cannot|unable|denied|not found|undefined|traceback)\b|[✗✘×]/i;
// Escape sequences are what this strips, so the control character is the point.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX_LITERAL = /\b0x[0-9a-f]+\b/gi;
/** Commit hashes, request and container ids: 7+ hex digits mixing digits and letters. */
const HEX_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi;
/** `file.ts:12:5` and `file.ts(12,5)`: where in a file, which moves with every edit. */
const LINE_COL = /(\.[A-Za-z0-9]+)(?::\d+(?::\d+)?|\(\d+(?:,\s*\d+)?\))/g;
/** A number on its own or with a unit, not one inside a name such as `TS2345` or `v18`. */
const NUMBER = /(?<![A-Za-z_\d])\d+(?:\.\d+)?/g;

/**
 * The error an iteration ended on, in a form that is equal when the error is the same: the
 * first line that reports a problem (else the first non-empty line), with colours stripped,
 * file positions, timestamps, hex ids and numbers replaced by placeholders, and whitespace
 * collapsed. `undefined` when there is no text.
 *
 * @example
 * errorSignature('src/a.ts:12:5 - error TS2345: Argument of type 3 ...');
 * // 'src/a.ts:<line> - error TS2345: Argument of type <n> ...'
 */
export function errorSignature(text: string, maxLength = 200): string | undefined {
  const lines = text
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const line = lines.find((candidate) => ERROR_LINE.test(candidate)) ?? lines[0];
  if (line === undefined) return undefined;
  const signature = line
    .replace(ISO_TIME, '<time>')
    .replace(UUID, '<hex>')
    .replace(HEX_LITERAL, '<hex>')
    .replace(HEX_ID, '<hex>')
    .replace(LINE_COL, '$1:<line>')
    .replace(NUMBER, '<n>')
    .replace(/\s+/g, ' ');
  return signature.slice(0, maxLength);
}

/**
 * The share of tests that passed, or `undefined` when the iteration reported no tests.
 *
 * @example
 * passRate({ testsPassed: 9, testsTotal: 10 }); // 0.9
 */
export function passRate(
  entry: Pick<IterationSummary, 'testsPassed' | 'testsFailed' | 'testsTotal'>,
): number | undefined {
  const { testsPassed, testsFailed, testsTotal } = entry;
  if (testsTotal === undefined || testsTotal === 0) return undefined;
  if (testsPassed !== undefined) return testsPassed / testsTotal;
  if (testsFailed !== undefined) return (testsTotal - testsFailed) / testsTotal;
  return undefined;
}

/** The latest `size` entries. */
export function recent(history: History, size: number): History {
  return history.slice(Math.max(0, history.length - size));
}

/**
 * How many of the latest entries, counted back from the newest, all satisfy `holds`.
 *
 * @example
 * trailingCount(history, (entry) => !entry.committed); // iterations since the last commit
 */
export function trailingCount(
  history: History,
  holds: (entry: IterationSummary) => boolean,
): number {
  let count = 0;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const entry = history[index];
    if (entry === undefined || !holds(entry)) break;
    count += 1;
  }
  return count;
}

/** Progress is a counted commit or a meaningful change short of one. */
export function madeProgress(entry: IterationSummary): boolean {
  return entry.committed || entry.meaningfulChange;
}

/**
 * Back-and-forth mode switches: changes of mode between consecutive iterations of the same
 * task to a mode that task already used since it was last taken up. A forward pipeline
 * (planner → implementer → tester → reviewer) counts 0; implementer → debugger →
 * implementer counts 1; A → B → A → B counts 2. A change of task starts afresh, because a
 * new task runs the pipeline again.
 *
 * @example
 * modeReturns(history); // 2
 */
export function modeReturns(history: History): number {
  let returns = 0;
  let used = new Set<AgentMode>();
  let previous: IterationSummary | undefined;
  for (const entry of history) {
    if (previous === undefined || previous.taskId !== entry.taskId) used = new Set();
    else if (previous.mode !== entry.mode && used.has(entry.mode)) returns += 1;
    used.add(entry.mode);
    previous = entry;
  }
  return returns;
}

/** A recurring error: its signature, how often it occurred and when it last did. */
export interface ErrorTally {
  signature: string;
  occurrences: number;
  lastIteration: number;
}

/**
 * Each error signature in `history` with its occurrences, most frequent first (ties: the
 * most recent first).
 *
 * @example
 * errorTallies(history)[0]; // { signature: 'error TS2345: ...', occurrences: 3, lastIteration: 9 }
 */
export function errorTallies(history: History): ErrorTally[] {
  const tallies = new Map<string, ErrorTally>();
  for (const entry of history) {
    if (entry.errorSignature === undefined) continue;
    const tally = tallies.get(entry.errorSignature);
    tallies.set(entry.errorSignature, {
      signature: entry.errorSignature,
      occurrences: (tally?.occurrences ?? 0) + 1,
      lastIteration: entry.iteration,
    });
  }
  return [...tallies.values()].sort(
    (a, b) => b.occurrences - a.occurrences || b.lastIteration - a.lastIteration,
  );
}
