/** What the model double keeps between requests, shared by its request handling. */
import type { ReceivedRequest } from './received-request.js';
import type { Responder } from './request.js';
import type { ScriptQueue } from './script.js';

export interface ServerState {
  /** When set, a Messages API key must equal it. */
  readonly apiKey: string | undefined;
  /** Everything received, in arrival order. */
  readonly requests: ReceivedRequest[];
  readonly script: ScriptQueue;
  /** Slow answers still waiting, cancelled when the server stops. */
  readonly timers: Set<NodeJS.Timeout>;
  /** Read when an answer is due, so a replacement also answers a slow step still waiting. */
  responder: Responder;
  /** How many answers have been given: numbers their ids. */
  answered: number;
}
