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

/** A path with a file extension (`src/a.ts`, `./lib/x.py:<line>`, `tests\\b.js`). */
const PATH = /(?:[A-Za-z]:)?(?:[\w.@-]*[/\\])*[\w.@-]+\.[A-Za-z][A-Za-z0-9]{0,5}(?::<line>)?/g;
/** Quoted names differ per file ('foo' is declared but never used): the kind of error stays. */
const QUOTED = /(['"`‘“])[^'"`’”]{1,80}(['"`’”])/g;

export interface FailedIteration {
  outcome: IterationOutcome;
  gates: readonly GateResult[];
  /** The runner's cause, or the failure detail, when no gate failed. */
  cause?: string;
}

/**
 * @example
 * issueKeyOf({ outcome: 'gates_failed', gates: [{ name: 'typecheck', passed: false, blocking: true,
 *   outputTail: "src/a.ts(3,7): error TS2304: Cannot find name 'foo'." }] });
 * // { class: 'typecheck', signature: "<file> error TS2304: Cannot find name <name>." }
 */
export function issueKeyOf(failed: FailedIteration): IssueKey | undefined {
  if (failed.outcome === 'passed') return undefined;
  const gate =
    failed.gates.find((candidate) => !candidate.passed && candidate.blocking) ??
    failed.gates.find((candidate) => !candidate.passed);
  const text = gate ? gate.outputTail : (failed.cause ?? '');
  const signature = errorSignature(text);
  const cls = gate ? gateKind(gate.name) : failed.outcome;
  return { class: cls, signature: placeless(signature ?? failed.outcome) };
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
