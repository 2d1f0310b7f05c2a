/**
 * The model double's script: answers queued by a test, each taken by the first request it
 * matches, before the responder answers the rest. `faults.ts` builds the steps.
 */
import type { ModelServerRequest } from './request.js';

/** Which requests a step may answer. */
export type Match = (request: ModelServerRequest) => boolean;

/** One scripted answer; a step with `match` is used only by a request it matches. */
export type ScriptStep = (
  | {
      kind: 'error';
      status: number;
      type?: string;
      /** Bedrock's exception name; by default derived from the status. */
      bedrockType?: string;
      message?: string;
      headers?: Record<string, string>;
    }
  | { kind: 'text'; text: string; stopReason?: string }
  | { kind: 'slow'; delayMs: number; then?: ScriptStep }
  | { kind: 'drop' }
) & { match?: Match };

/** A scripted error status. */
export type ErrorStep = Extract<ScriptStep, { kind: 'error' }>;

/** The message of a scripted error, in either API's error shape. */
export function errorMessageOf(step: ErrorStep): string {
  return step.message ?? `scripted ${step.status}`;
}

/**
 * The steps not yet used, in the order they were queued.
 *
 * @example
 * const script = new ScriptQueue();
 * script.push(fault.overloaded());
 * script.take(request); // the 529 step; the next request gets undefined
 */
export class ScriptQueue {
  #steps: ScriptStep[] = [];

  push(...steps: ScriptStep[]): void {
    this.#steps.push(...steps);
  }

  /** Removes and returns the first step `request` matches, or undefined. */
  take(request: ModelServerRequest): ScriptStep | undefined {
    const index = this.#steps.findIndex((step) => step.match === undefined || step.match(request));
    return index === -1 ? undefined : this.#steps.splice(index, 1)[0];
  }

  get pending(): number {
    return this.#steps.length;
  }

  clear(): void {
    this.#steps = [];
  }
}
