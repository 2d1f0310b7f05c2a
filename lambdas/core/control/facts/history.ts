/**
 * What loop control remembers of each iteration, and the few questions every decision
 * asks of that history. A history is oldest first; "the window" is its latest entries.
 */
import type { AgentMode, IterationSummary } from '../../schemas/control-history.js';

export type History = readonly IterationSummary[];

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

/**
 * The latest value `read` gives, counted back from the newest entry; `null` when no entry
 * gives one.
 *
 * @example
 * latest(history, (entry) => entry.warnings); // 3
 */
export function latest<T>(
  history: History,
  read: (entry: IterationSummary) => T | undefined,
): T | null {
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const entry = history[index];
    const value = entry === undefined ? undefined : read(entry);
    if (value !== undefined) return value;
  }
  return null;
}

/** A file left uncommitted: by how many iterations, and the latest of them. */
export interface FileTouches {
  file: string;
  touches: number;
  lastIteration: number;
}

/**
 * Files left uncommitted since the last commit, most touched first (ties: most recent); a
 * file listed twice by one iteration counts once.
 *
 * @example
 * uncommittedTouches(history)[0]; // { file: 'src/a.ts', touches: 4, lastIteration: 9 }
 */
export function uncommittedTouches(history: History): FileTouches[] {
  const sinceCommit = recent(
    history,
    trailingCount(history, (entry) => !entry.committed),
  );
  const touches = new Map<string, FileTouches>();
  for (const entry of sinceCommit)
    for (const file of new Set(entry.filesTouchedUncommitted))
      touches.set(file, {
        file,
        touches: (touches.get(file)?.touches ?? 0) + 1,
        lastIteration: entry.iteration,
      });
  return [...touches.values()].sort(
    (a, b) => b.touches - a.touches || b.lastIteration - a.lastIteration,
  );
}
