/**
 * Heuristics for a `change` artefact (one iteration's work on one story): did the gates
 * pass, were tests touched, and is the change small and focused. Thresholds and their
 * reasons are in constants.ts.
 */
import {
  CHANGE_WEIGHTS,
  DIFF_LINES_LARGE,
  DIFF_LINES_MEDIUM,
  DIFF_LINES_SMALL,
  FILES_FOCUSED,
  FILES_MODERATE,
  FILES_SPRAWLING,
  GATES_SCORE_ADVISORY_FAILED,
  GATES_SCORE_ALL_PASSED,
  GATES_SCORE_BLOCKING_FAILED,
  GATES_SCORE_NONE_RAN,
  REASON_THRESHOLD,
  SIZE_SCORE_BEST,
  SIZE_SCORE_SECOND,
  SIZE_SCORE_THIRD,
  SIZE_SCORE_WORST,
} from './constants.js';
import { diffStats } from '../shared/diff-stats.js';
import type { HeuristicOutcome } from './story-heuristics.js';
import type { ChangeArtefact } from '../schemas/evaluation.js';
import type { GateResult } from '../schemas/gate-result.js';

/**
 * Test files across the usual conventions: a `test(s)/`, `__tests__/` or `spec(s)/`
 * directory; `*.test.*` / `*.spec.*`; Python `test_*.py` / `*_test.py`; Go `*_test.go`;
 * Ruby `*_spec.rb`; Java / Kotlin / C# `*Test(s).*` and `*IT.*`.
 */
const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|specs?)\/|\.(?:test|spec)\.[^/]+$|(?:^|\/)test_[^/]*\.py$|_test\.(?:go|py)$|_spec\.rb$|(?:Tests?|IT)\.(?:java|kt|cs)$/;

/**
 * Whether a path is a test file.
 *
 * @example
 * isTestPath('lambdas/core/foo.test.ts') // true
 */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/**
 * Gates: 0.5 when none ran, 0 when a blocking one failed, 0.7 when only an advisory one
 * failed, 1 when all passed.
 *
 * @example
 * gatesScore([{ name: 'test', blocking: true, passed: true, ... }]) // 1
 */
export function gatesScore(gates: readonly GateResult[]): number {
  if (gates.length === 0) return GATES_SCORE_NONE_RAN;
  if (gates.some((gate) => gate.blocking && !gate.passed)) return GATES_SCORE_BLOCKING_FAILED;
  if (gates.some((gate) => !gate.passed)) return GATES_SCORE_ADVISORY_FAILED;
  return GATES_SCORE_ALL_PASSED;
}

/** 0 → worst (nothing changed); then best / second / third up to each limit; beyond, worst. */
function sizeBucket(value: number, limits: readonly [number, number, number]): number {
  if (value <= 0) return SIZE_SCORE_WORST;
  if (value <= limits[0]) return SIZE_SCORE_BEST;
  if (value <= limits[1]) return SIZE_SCORE_SECOND;
  if (value <= limits[2]) return SIZE_SCORE_THIRD;
  return SIZE_SCORE_WORST;
}

/**
 * Diff size in changed lines: 1–200 → 1, –400 → 0.6, –1000 → 0.3, more (or none) → 0.
 *
 * @example
 * diffSizeScore(120) // 1
 */
export function diffSizeScore(changedLines: number): number {
  return sizeBucket(changedLines, [DIFF_LINES_SMALL, DIFF_LINES_MEDIUM, DIFF_LINES_LARGE]);
}

/**
 * Spread in files touched: 1–5 → 1, –10 → 0.6, –20 → 0.3, more (or none) → 0.
 *
 * @example
 * spreadScore(3) // 1
 */
export function spreadScore(fileCount: number): number {
  return sizeBucket(fileCount, [FILES_FOCUSED, FILES_MODERATE, FILES_SPRAWLING]);
}

export interface ChangeOutcome extends HeuristicOutcome {
  /** What patterns are matched against: added lines, transcript summary, file paths. */
  readonly text: string;
}

/**
 * All four change heuristics, weighted by {@link CHANGE_WEIGHTS}; reasons `gates_passed`,
 * `tests_added`, `reviewable_diff`, `focused_change`. The pattern text leaves out removed
 * lines (a bad pattern must not fire on code the change deleted) and the story (the same
 * every iteration: it says nothing about this change).
 *
 * @example
 * scoreChange(artefact) // { fraction: 1, reasons: ['gates_passed', ...], text: '...' }
 */
export function scoreChange(change: ChangeArtefact): ChangeOutcome {
  const stats = diffStats(change.diff);
  const files = [...new Set([...change.filesChanged, ...stats.files])];
  const gates = gatesScore(change.gates);
  const tests = files.some(isTestPath) ? 1 : 0;
  const size = diffSizeScore(stats.addedLines + stats.removedLines);
  const spread = spreadScore(files.length);

  const reasons: string[] = [];
  if (gates > REASON_THRESHOLD) reasons.push('gates_passed');
  if (tests === 1) reasons.push('tests_added');
  if (size > REASON_THRESHOLD) reasons.push('reviewable_diff');
  if (spread > REASON_THRESHOLD) reasons.push('focused_change');

  const w = CHANGE_WEIGHTS;
  const max = w.gates + w.tests + w.diffSize + w.spread;
  const points = w.gates * gates + w.tests * tests + w.diffSize * size + w.spread * spread;
  const text = `${stats.addedText}\n${change.transcriptSummary}\n${files.join('\n')}`;
  return { fraction: points / max, reasons, text };
}
