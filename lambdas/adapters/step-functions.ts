/**
 * ExecutionStarter over Step Functions: one execution of the run-loop state machine per
 * segment, named `<runId>-s<segment>` as StartNextSegment names them, so a repeated start of
 * the same segment is refused by Step Functions itself (ExecutionAlreadyExists).
 */
import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  StartExecutionCommand,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { ExecutionExistsError } from '../core/errors.js';
import type { ExecutionStarter } from '../ports.js';
import { toStoreError } from './aws-errors.js';

export class SfnExecutionStarter implements ExecutionStarter {
  constructor(
    private readonly client: SFNClient,
    private readonly stateMachineArn: string,
  ) {}

  async startSegment(input: { runId: string; segment: number }): Promise<{ executionId: string }> {
    const name = `${input.runId}-s${input.segment}`;
    try {
      const { executionArn } = await this.client.send(
        new StartExecutionCommand({
          stateMachineArn: this.stateMachineArn,
          name,
          input: JSON.stringify({ runId: input.runId, segment: input.segment }),
        }),
      );
      return { executionId: executionArn ?? name };
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists)
        throw new ExecutionExistsError(name, { cause: error });
      throw toStoreError(error, `start execution ${name}`);
    }
  }

  async isRunning(input: { runId: string; segment: number }): Promise<boolean> {
    const name = `${input.runId}-s${input.segment}`;
    const executionArn = `${this.stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    try {
      const { status } = await this.client.send(new DescribeExecutionCommand({ executionArn }));
      return status === 'RUNNING';
    } catch (error) {
      if (error instanceof ExecutionDoesNotExist) return false;
      throw toStoreError(error, `describe execution ${name}`);
    }
  }
}
