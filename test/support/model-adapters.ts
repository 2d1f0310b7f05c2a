/**
 * What the model adapters' integration tests share: the model double answering "pong",
 * started once for the file and reset before each test; a request; and a rejection to
 * assert on.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ModelRequest } from '../../lambdas/ports.js';
import { startModelServer, type ModelServer } from '../../local/model-server/server.js';

/**
 * Registers the file's hooks; `ready` receives the server once it listens.
 *
 * @example
 * let server: ModelServer;
 * usePongModelServer((started) => (server = started));
 */
export function usePongModelServer(ready: (server: ModelServer) => void): void {
  let server: ModelServer | undefined;
  beforeAll(async () => {
    server = await startModelServer({ responder: () => 'pong' });
    ready(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(() => {
    server?.reset();
  });
}

/** A one-word question to `model`, with a short per-try timeout. */
export function modelRequest(model: string, overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model,
    system: 'Answer in one word.',
    messages: [{ role: 'user', content: 'ping' }],
    maxTokens: 64,
    timeoutMs: 2_000,
    ...overrides,
  };
}

/** The rejection of `promise`, for asserting its fields. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}
