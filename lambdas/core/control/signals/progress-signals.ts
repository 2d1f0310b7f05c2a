/**
 * Semantic progress tracking (design §3.1): what one iteration did, in several dimensions
 * instead of "was there a commit". Git level (commits, lines), file level (source, test,
 * doc files), quality level (tests and warnings against the baseline), task level (time on
 * the task, switches) and behaviour (repeated edits without a commit, breadth).
 *
 * The function is pure: everything that depends on earlier iterations comes in as input,
 * and what the next iteration needs (`nextBaselineGateCounts`, `nextUncommittedEdits`,
 * `taskSwitchCount`) comes out, for the caller to store and pass back.
 */
import { z } from 'zod';
import { GateResultSchema } from '../../schemas/gate-result.js';
import { IterationOutcomeSchema } from '../../schemas/outcome.js';
import { parseOrThrow } from '../../shared/validation.js';
import {
  classifyPath,
  countFileKinds,
  DEFAULT_AREA_DEPTH,
  normalisePath,
  pathArea,
} from './file-kinds.js';
import { readToolOutput } from '../../tool-output/read-output.js';
import { type GateOutputCounts } from '../../schemas/gate-counts.js';
import type {
  GateCountsByName,
  UncommittedEdits,
  ProgressSignals,
} from '../../schemas/progress-signals.js';
import { GateCountsByNameSchema, UncommittedEditsSchema } from '../../schemas/progress-signals.js';

const Count = z.number().int().nonnegative();
const IsoDate = z.iso.datetime({ offset: true });

export const ProgressSignalsConfigSchema = z.object({
  /** The design's "same file edited 3x without commit": iterations changing a file, uncommitted. */
  repeatedEditThreshold: z.number().int().positive().default(3),
  /** Directory levels that make an area, for exploration breadth. */
  areaDepth: z.number().int().positive().default(DEFAULT_AREA_DEPTH),
  /** Changed lines an uncommitted source/test change needs to count as meaningful. */
  meaningfulMinLines: Count.default(1),
});
export type ProgressSignalsConfig = z.infer<typeof ProgressSignalsConfigSchema>;

/** A gate's result as the runner reports it, with what the caller may know besides. */
export const GateObservationSchema = GateResultSchema.extend({
  /** The gate's command: a diagnostic tool it names reads an empty, passing output as clean. */
  command: z.string().optional(),
  /** The full output (gates.json), when at hand: `outputTail` may have cut summaries off. */
  output: z.string().optional(),
});
export type GateObservation = z.infer<typeof GateObservationSchema>;

export const IterationObservationSchema = z
  .object({
    iteration: z.number().int().positive(),
    taskId: z.string().min(1),
    /** The task of the iteration before, if there was one. */
    previousTaskId: z.string().optional(),
    outcome: IterationOutcomeSchema,
    /** The counted commit, when the iteration made one. */
    commit: z.string().min(1).optional(),
    /** From `git diff --numstat` of the change (committed or kept as evidence): parseNumstat. */
    linesAdded: Count.optional(),
    linesRemoved: Count.optional(),
    filesChanged: z.array(z.string()).default([]),
    gates: z.array(GateObservationSchema).default([]),
    /**
     * The counts to compare with: those of the code the agent started from, i.e. the
     * previous observation's `nextBaselineGateCounts`.
     */
    baselineGateCounts: GateCountsByNameSchema.default({}),
    /** The iteration the current task was first worked on, and when. */
    taskStartedIteration: z.number().int().positive(),
    taskStartedAt: IsoDate,
    now: IsoDate,
    /** Task switches before this iteration (the previous `taskSwitchCount`). */
    taskSwitchesBefore: Count.default(0),
    /** The previous observation's `nextUncommittedEdits`. */
    uncommittedEdits: UncommittedEditsSchema.default({}),
  })
  .refine((input) => input.taskStartedIteration <= input.iteration, {
    path: ['taskStartedIteration'],
    message: 'the task cannot start after the iteration being observed',
  });
export type IterationObservation = z.infer<typeof IterationObservationSchema>;
export type IterationObservationInput = z.input<typeof IterationObservationSchema>;

export const NumstatSchema = z.object({
  linesAdded: Count,
  linesRemoved: Count,
  files: z.array(
    z.object({
      path: z.string(),
      /** Undefined for a binary file (`-` in numstat). */
      added: Count.optional(),
      removed: Count.optional(),
    }),
  ),
});
export type Numstat = z.infer<typeof NumstatSchema>;

/** `src/{old => new}/a.ts` → `src/new/a.ts`; `a.ts => b.ts` → `b.ts`. */
function renamedPath(path: string): string {
  const braced = /^(.*)\{(.*) => (.*)\}(.*)$/.exec(path);
  if (braced) return normalisePath(`${braced[1]}${braced[3]}${braced[4]}`);
  const plain = /^(.*) => (.*)$/.exec(path);
  return plain ? plain[2]! : path;
}

/**
 * Reads `git diff --numstat` output: lines added and removed, per file and in total. Binary
 * files count as changed files with no lines; lines that are not numstat are skipped.
 *
 * @example
 * parseNumstat('10\t2\tsrc/a.ts\n-\t-\tlogo.png\n')
 * // { linesAdded: 10, linesRemoved: 2, files: [{ path: 'src/a.ts', added: 10, removed: 2 }, { path: 'logo.png' }] }
 */
export function parseNumstat(text: string): Numstat {
  const result: Numstat = { linesAdded: 0, linesRemoved: 0, files: [] };
  for (const line of text.split(/\r?\n/)) {
    const match = /^(\d+|-)\t(\d+|-)\t(.+)$/.exec(line);
    if (!match) continue;
    const path = renamedPath(match[3]!);
    if (match[1] === '-' || match[2] === '-') {
      result.files.push({ path });
      continue;
    }
    const added = Number(match[1]);
    const removed = Number(match[2]);
    result.linesAdded += added;
    result.linesRemoved += removed;
    result.files.push({ path, added, removed });
  }
  return result;
}

/** Each gate's counts: tail or full output, clean-output knowledge from its command. */
function countGates(gates: readonly GateObservation[]): GateCountsByName {
  const counts: GateCountsByName = {};
  for (const gate of gates) {
    const found = readToolOutput(gate.output ?? gate.outputTail, {
      command: gate.command,
      succeeded: gate.passed && !gate.timedOut,
    }).counts;
    if (found.tests || found.diagnostics) counts[gate.name] = found;
  }
  return counts;
}

/** Σ (now − before) over gates where both are known; undefined when no gate has both. */
function delta(
  now: GateCountsByName,
  before: GateCountsByName,
  pick: (counts: GateOutputCounts) => number | undefined,
): number | undefined {
  let sum: number | undefined;
  for (const [name, counts] of Object.entries(now)) {
    const previous = before[name];
    const current = pick(counts);
    const earlier = previous === undefined ? undefined : pick(previous);
    if (current === undefined || earlier === undefined) continue;
    sum = (sum ?? 0) + current - earlier;
  }
  return sum;
}

/** The baseline with each gate's known parts replaced by this iteration's. */
function mergeCounts(before: GateCountsByName, now: GateCountsByName): GateCountsByName {
  const merged: GateCountsByName = { ...before };
  for (const [name, counts] of Object.entries(now)) merged[name] = { ...before[name], ...counts };
  return merged;
}

function breadth(files: readonly string[], depth: number): number {
  if (files.length <= 1) return 0;
  const areas = new Set(files.map((file) => pathArea(file, depth)));
  return (areas.size - 1) / (files.length - 1);
}

/**
 * The iteration's progress signals.
 *
 * `meaningfulChange` is true when any of these holds:
 * 1. the iteration made a counted commit;
 * 2. more tests pass than in the baseline (`testsPassingDelta > 0`);
 * 3. it changed a source or test file that is not in `repeatedEditFiles`, with at least
 *    `meaningfulMinLines` changed lines (not checked when the line count is unknown).
 * Docs, config and bookkeeping alone are not meaningful, nor is the same file reworked
 * for the threshold-th time without ever being committed.
 *
 * `repeatedEditFiles`: each iteration that changes a file without a counted commit adds 1
 * to that file's count (`nextUncommittedEdits`); a commit clears every count. A file
 * changed now whose count reaches `repeatedEditThreshold` is listed.
 *
 * Throws InvalidInputError when the observation does not match its schema.
 *
 * @example
 * const signals = computeProgressSignals({
 *   iteration: 4, taskId: 'US-002', previousTaskId: 'US-002', outcome: 'gates_failed',
 *   ...parseNumstat(numstatText), filesChanged: result.filesChanged, gates: result.gates,
 *   baselineGateCounts: last.nextBaselineGateCounts, uncommittedEdits: last.nextUncommittedEdits,
 *   taskStartedIteration: 2, taskStartedAt, now: clock.now().toISOString(),
 * });
 */
export function computeProgressSignals(
  input: IterationObservationInput,
  config: Partial<ProgressSignalsConfig> = {},
): ProgressSignals {
  const observation = parseOrThrow(IterationObservationSchema, input, 'iteration observation');
  const options = parseOrThrow(ProgressSignalsConfigSchema, config, 'progress signals config');
  const files = [...new Set(observation.filesChanged.map(normalisePath))].filter(
    (file) => file !== '',
  );
  const kinds = countFileKinds(files);
  const committed = observation.commit !== undefined;

  const nextUncommittedEdits: UncommittedEdits = {};
  if (!committed) {
    Object.assign(nextUncommittedEdits, observation.uncommittedEdits);
    for (const file of files) nextUncommittedEdits[file] = (nextUncommittedEdits[file] ?? 0) + 1;
  }
  const repeatedEditFiles = files
    .filter((file) => (nextUncommittedEdits[file] ?? 0) >= options.repeatedEditThreshold)
    .sort();

  const gateCounts = countGates(observation.gates);
  const baseline = observation.baselineGateCounts;
  const testsDelta = delta(gateCounts, baseline, (counts) => counts.tests?.total);
  const testsPassingDelta = delta(gateCounts, baseline, (counts) => counts.tests?.passed);
  const warningsDelta = delta(gateCounts, baseline, (counts) => counts.diagnostics?.warnings);
  const errorsDelta = delta(gateCounts, baseline, (counts) => counts.diagnostics?.errors);

  const linesChanged =
    observation.linesAdded === undefined && observation.linesRemoved === undefined
      ? undefined
      : (observation.linesAdded ?? 0) + (observation.linesRemoved ?? 0);
  const repeated = new Set(repeatedEditFiles);
  const freshCodeChange = files.some((file) => {
    const kind = classifyPath(file);
    return !repeated.has(file) && (kind === 'source' || kind === 'test');
  });
  const meaningfulChange =
    committed ||
    (testsPassingDelta ?? 0) > 0 ||
    (freshCodeChange && (linesChanged === undefined || linesChanged >= options.meaningfulMinLines));

  const taskSwitched =
    observation.previousTaskId !== undefined && observation.previousTaskId !== observation.taskId;
  const currentTaskMs = Math.max(
    0,
    Date.parse(observation.now) - Date.parse(observation.taskStartedAt),
  );

  return {
    iteration: observation.iteration,
    taskId: observation.taskId,
    commitsAdded: committed ? 1 : 0,
    ...(linesChanged === undefined ? {} : { linesChanged }),
    sourceFilesModified: kinds.source,
    testFilesModified: kinds.test,
    docFilesModified: kinds.doc,
    configFilesModified: kinds.config,
    ...(testsDelta === undefined ? {} : { testsAdded: Math.max(0, testsDelta) }),
    ...(testsPassingDelta === undefined ? {} : { testsPassingDelta }),
    ...(warningsDelta === undefined ? {} : { warningsDelta }),
    ...(errorsDelta === undefined ? {} : { errorsDelta }),
    taskCompleted: observation.outcome === 'passed',
    currentTaskIterations: observation.iteration - observation.taskStartedIteration + 1,
    currentTaskMs,
    taskSwitched,
    taskSwitchCount: observation.taskSwitchesBefore + (taskSwitched ? 1 : 0),
    uniqueFilesTouched: files.length,
    repeatedEditFiles,
    explorationBreadth: breadth(files, options.areaDepth),
    meaningfulChange,
    gateCounts,
    nextBaselineGateCounts:
      observation.outcome === 'passed' ? mergeCounts(baseline, gateCounts) : baseline,
    nextUncommittedEdits,
  };
}
