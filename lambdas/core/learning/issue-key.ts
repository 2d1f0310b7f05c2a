/**
 * The issue key of a failed iteration: what failed (the first failed blocking gate's kind,
 * else the outcome) and its error signature without the places it names, so that the same
 * mistake made in two files, or on two lines, is one key (learned-rules.md groups hints by
 * it, the registry merges error patterns on it).
 */
import { gateKind } from '../control/quality/gate-kind.js';
import type { GateResult } from '../schemas/gate-result.js';
import type { IssueKey } from '../schemas/learning.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import { errorSignature } from '../tool-output/error-signature.js';

/**
 * A path with a file extension (`src/a.ts`, `./lib/x.py:<line>`, `tests\\b.js`), numbers in
 * it already `<n>` (`src/US-<n>.js`).
 */
const PATH = /(?:[A-Za-z]:)?(?:[\w.@<>-]*[/\\])*[\w.@<>-]+\.[A-Za-z][A-Za-z0-9]{0,5}(?::<line>)?/g;
/** Quoted names differ per file ('foo' is declared but never used): the kind of error stays. */
const QUOTED = /(['"`‘“])[^'"`’”]{1,80}(['"`’”])/g;

/** Outcomes of the agent's own making; a cancel, an interrupt or a runner fault teach nothing. */
export const AGENT_FAILURES: ReadonlySet<IterationOutcome> = new Set([
  'gates_failed',
  'no_changes',
  'agent_failed',
  'agent_crashed',
  'agent_timeout',
]);

/** `AssertionError: expected …`, `TypeError: x is not a function`, `E   ValueError: …`. */
const THROWN = /\b[A-Z][A-Za-z]*(?:Error|Exception)\b:/;

export interface FailedIteration {
  /** Absent while the iteration is not recorded. */
  outcome?: IterationOutcome | undefined;
  gates: readonly GateResult[];
  /** The runner's cause, or the failure detail, when no gate failed. */
  cause?: string;
}

/**
 * @example
 * issueKeyOf({ outcome: 'gates_failed', gates: [{ name: 'typecheck', passed: false, blocking: true,
 *   outputTail: "src/a.ts(3,7): error TS2304: Cannot find name 'foo'." }] });
 * // { class: 'typecheck', signature: "<file>: error TS2304: Cannot find name <name>." }
 */
export function issueKeyOf(failed: FailedIteration): IssueKey | undefined {
  if (failed.outcome === undefined || !AGENT_FAILURES.has(failed.outcome)) return undefined;
  const gate =
    failed.gates.find((candidate) => !candidate.passed && candidate.blocking) ??
    failed.gates.find((candidate) => !candidate.passed);
  const text = gate ? gate.outputTail : (failed.cause ?? '');
  const cls = gate ? gateKind(gate.name) : failed.outcome;
  return { class: cls, signature: problemSignature(text) ?? failed.outcome };
}

/**
 * What went wrong in a tool's output, placeless: the first thrown error's line, else the
 * first problem line ({@link errorSignature}). A test runner's first problem line is its
 * per-file tally (`❯ a.test.ts (3 tests | 1 failed)`), the same for every failure; the
 * assertion's error line says what went wrong.
 *
 * @example
 * problemSignature('❯ a.test.ts (1 test | 1 failed)\nAssertionError: expected 5 to be 6');
 * // 'AssertionError: expected <n> to be <n>'
 */
export function problemSignature(text: string): string | undefined {
  const thrown = text.split('\n').find((line) => THROWN.test(line));
  const signature = errorSignature(thrown ?? text);
  return signature === undefined ? undefined : placeless(signature);
}

/** A signature with files, positions and quoted names replaced by placeholders. */
export function placeless(signature: string): string {
  const replaced = signature
    .replace(PATH, '<file>')
    .replace(QUOTED, '<name>')
    .replace(/\s+/g, ' ')
    .trim();
  return replaced === '' ? signature : replaced;
}

/** One string per key, for grouping and ids. */
export function issueKeyText(issue: IssueKey): string {
  return `${issue.class}: ${issue.signature}`;
}
