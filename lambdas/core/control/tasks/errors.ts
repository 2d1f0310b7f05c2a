import { InvalidTransitionError } from '../../errors.js';
import type { TaskStatus } from './task-state.js';

/** An event the task's current state does not allow (e.g. `review_passed` on a task not in review). */
export class InvalidTaskTransitionError extends InvalidTransitionError {
  readonly from: TaskStatus;
  readonly to: TaskStatus;
  readonly event: string;

  constructor(from: TaskStatus, to: TaskStatus, event: string, options?: ErrorOptions) {
    super(`a task cannot go from ${from} to ${to} (event ${event})`, options);
    this.name = 'InvalidTaskTransitionError';
    this.from = from;
    this.to = to;
    this.event = event;
  }
}
