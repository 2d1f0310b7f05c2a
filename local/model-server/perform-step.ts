/**
 * Carries out a script step for one admitted request, or, without a step, answers with
 * the responder: an error in the request's API shape, a text, a dropped connection, or
 * the same after a delay.
 */
import type { HttpAnswer } from './http.js';
import { messageAnswer } from './message-answer.js';
import type { ModelApi } from './model-api.js';
import type { ModelServerRequest } from './request.js';
import type { ScriptStep } from './script.js';
import type { ServerState } from './server-state.js';

/** One admitted request and its connection. */
export interface Exchange {
  readonly request: ModelServerRequest;
  readonly api: ModelApi;
  send(answer: HttpAnswer): void;
  /** Whether the connection is gone or already answered (e.g. the client timed out). */
  closed(): boolean;
  /** Closes the connection without an answer. */
  drop(): void;
}

/**
 * Answers `exchange` as `step` says.
 *
 * @example
 * performStep(fault.slow(500), exchange, state); // the responder's answer, 500 ms later
 */
export function performStep(
  step: ScriptStep | undefined,
  exchange: Exchange,
  state: Pick<ServerState, 'responder' | 'timers' | 'answered'>,
): void {
  if (exchange.closed()) return;
  if (step === undefined) return answerText(exchange, state, state.responder(exchange.request));
  switch (step.kind) {
    case 'error':
      return exchange.send(exchange.api.scriptedError(step));
    case 'text':
      return answerText(exchange, state, step.text, step.stopReason);
    case 'drop':
      return exchange.drop();
    case 'slow': {
      const timer = setTimeout(() => {
        state.timers.delete(timer);
        performStep(step.then, exchange, state);
      }, step.delayMs);
      state.timers.add(timer);
      return;
    }
  }
}

function answerText(
  exchange: Exchange,
  state: Pick<ServerState, 'answered'>,
  text: string,
  stopReason?: string,
): void {
  state.answered += 1;
  const body = messageAnswer(state.answered, exchange.request, text, stopReason);
  exchange.send({ status: 200, body, headers: exchange.api.answerHeaders(body.usage) });
}
