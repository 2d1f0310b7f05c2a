/**
 * BatchScheduler over Step Functions: one execution of the batch-closer state machine per
 * batch, which waits until the batch's `closesAt` and then invokes the close-batch function.
 * The execution is named after the project and batch, so scheduling the same batch again is
 * refused by Step Functions itself (ExecutionAlreadyExists), which counts as scheduled.
 */
import { ExecutionAlreadyExists, StartExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { BatchScheduler } from '../ports.js';
import { toStoreError } from './aws-errors.js';

/** The execution's name: project ids and batch ids hold only characters a name may. */
export const batchCloseExecutionName = (projectId: string, batchId: string): string =>
  `close-${projectId}-${batchId}`;

export class SfnBatchScheduler implements BatchScheduler {
  constructor(
    private readonly client: SFNClient,
    private readonly stateMachineArn: string,
  ) {}

  async scheduleClose(batch: { projectId: string; batchId: string; closesAt: string }) {
    const name = batchCloseExecutionName(batch.projectId, batch.batchId);
    try {
      await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name,
          input: JSON.stringify(batch),
        }),
      );
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists) return;
      throw toStoreError(
        error,
        `schedule the close of batch ${batch.batchId} of ${batch.projectId}`,
      );
    }
  }
}
