import type { ArtefactStore, Clock, ExecutionStarter, RunStore } from '../../ports.js';
import type { PromptTemplates } from '../prompts/templates.js';

/** The ports every loop step works through. */
export interface LoopDeps {
  runs: RunStore;
  artefacts: ArtefactStore;
  clock: Clock;
  /** The words of the prompt sections plans carry. */
  templates: PromptTemplates;
}

export interface SubmitDeps extends LoopDeps {
  executions: ExecutionStarter;
}
