/**
 * What the stages establish about an iteration, as values: each stage returns its part,
 * and result.json is built from them (agent/runner/result.ts).
 */
import type { RunnerObservation } from '../../lambdas/core/schemas/observation.js';
import type { ReviewFinding } from '../../lambdas/core/schemas/review.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';
import type { InvestigationResult } from '../../lambdas/core/schemas/investigation.js';
import type { Written } from './artefacts.js';
import type { IterationLearning } from '../../lambdas/core/schemas/learning.js';
import type { AgentSessionUsage } from '../../lambdas/core/schemas/cost-receipt.js';

export interface AgentFacts {
  exitCode: number | null;
  ms: number;
  /** The agent said `<promise>COMPLETE</promise>`. */
  claimedComplete: boolean;
  /** What its final message said it did and learned: hints and registry patterns learn from it. */
  report: { summary?: string; learnings: string[] };
  /** What the agent reported it used (Claude Code's stream-json `result`), when it did. */
  usage?: AgentSessionUsage;
}

/** transcript.jsonl, diff.patch and gates.json as written, and what loop control reads. */
export interface ChangeArtefacts {
  written: Written;
  observation?: RunnerObservation;
}

/** The evaluation suite's part: the documents uploaded, suite.json, and its time. */
export interface SuiteFacts {
  documents: string[];
  written: Written;
  ms: number;
}

export interface Facts {
  /** plan.json (read, not written) and the subtask of a decomposed story it names. */
  plan?: { written: Written; subtaskId?: string };
  prompt?: Written;
  agent?: AgentFacts;
  /** The gates as quality enforcement judged them, and their time. */
  gates?: { results: GateResult[]; ms: number };
  /** Review findings on gates that passed: result.json's `review`, with a pass only. */
  findings?: ReviewFinding[];
  filesChanged?: string[];
  progressArchive?: Written;
  change?: ChangeArtefacts;
  suite?: SuiteFacts;
  /** What the prompt carried of what was learned before. */
  learning?: IterationLearning;
  /** An investigation's result (result.json's `investigation`) and investigation.json. */
  investigation?: { result: InvestigationResult; written: Written };
}
