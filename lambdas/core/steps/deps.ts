import type { MetricsSink, ProjectSpendStore } from '../../metrics-ports.js';
import type { ArtefactStore, Clock, ExecutionStarter, RunStore } from '../../ports.js';
import type { LearningStore, PatternRetrieverFactory } from '../../learning-ports.js';
import type { PromptTemplates } from '../prompts/templates.js';

/** What learning across runs works through: its store, and how patterns are found. */
export interface LearningDeps {
  artefacts: ArtefactStore;
  clock: Clock;
  learning: LearningStore;
  /** Builds the retriever over a run's frozen registry patterns. */
  retrievers: PatternRetrieverFactory;
}

/** The ports every loop step works through. */
export interface LoopDeps extends LearningDeps {
  /** The run records, and the projects' spend per day the cost budgets read (one table). */
  runs: RunStore & ProjectSpendStore;
  artefacts: ArtefactStore;
  clock: Clock;
  /** The words of the prompt sections plans carry. */
  templates: PromptTemplates;
  /** Where a recorded iteration's and an ended run's metrics go. */
  metrics: MetricsSink;
}

/** What a step gets besides its ports and its input. */
export interface StepCall {
  /** Aborted when the step must stop (its Lambda is about to time out): slow calls stop. */
  signal?: AbortSignal;
}

export interface SubmitDeps extends LoopDeps {
  executions: ExecutionStarter;
}
