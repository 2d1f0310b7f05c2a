/**
 * An ExecutionStarter that starts nothing: it records each start and answers as Step
 * Functions would. POST /runs then measures the API path alone (parse, store the request,
 * start, answer `202`) without an execution running agents beside the measurement.
 */
import type { ExecutionStarter } from '../../lambdas/ports.js';

export class CountingStarter implements ExecutionStarter {
  /** The executions asked for, in order. */
  readonly started: { runId: string; segment: number }[] = [];

  async startSegment(input: { runId: string; segment: number }): Promise<{ executionId: string }> {
    this.started.push({ runId: input.runId, segment: input.segment });
    return { executionId: `bench-not-started:${input.runId}-s${input.segment}` };
  }

  /** Nothing it started runs. */
  async isRunning(): Promise<boolean> {
    return false;
  }
}
