import type { ModelClient } from '../../ports.js';
import type { LoopDeps } from './deps.js';
import type { PatternSetStore } from '../../ports.js';

/** The ports the evaluation steps work through, beside the loop's. */
export interface EvaluationDeps extends LoopDeps {
  patternSets: PatternSetStore;
  /** The judge and the proposer. Absent, the expensive mode cannot run (a fault, not a 0). */
  model?: ModelClient;
}
