import type { ArtefactStore, Clock, ExecutionStarter, RunStore } from '../../ports.js';

/** The ports every loop step works through. */
export interface LoopDeps {
  runs: RunStore;
  artefacts: ArtefactStore;
  clock: Clock;
}

export interface SubmitDeps extends LoopDeps {
  executions: ExecutionStarter;
}
