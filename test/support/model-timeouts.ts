/**
 * The timeout and abort tests both model adapters share: they use one retry policy
 * (`lambdas/adapters/model-retry.ts`), so each adapter's file registers the same tests
 * against the model double with its own client.
 */
import { expect, it } from 'vitest';
import { ModelUnavailableError } from '../../lambdas/adapters/model-retry.js';
import type { ModelRequest, ModelResponse } from '../../lambdas/ports.js';
import { fault } from '../../local/model-server/faults.js';
import type { ModelServer } from '../../local/model-server/server.js';
import { failureOf } from './model-adapters.js';

/**
 * Registers the shared tests; `complete` asks the adapter under test (with short
 * backoffs) for a request with these overrides, `server()` is the double it talks to.
 *
 * @example
 * itTimesOutAndStopsOnAbort(() => server, (overrides) => client().complete(request(overrides)));
 */
export function itTimesOutAndStopsOnAbort(
  server: () => ModelServer,
  complete: (overrides: Partial<ModelRequest>) => Promise<ModelResponse>,
): void {
  it('times out a slow answer and retries it', async () => {
    // Prepare
    server().script(fault.slow(2_000));
    const started = performance.now();

    // Act
    const response = await complete({ timeoutMs: 150 });

    // Assess
    expect(response).toMatchObject({ text: 'pong', attempts: 2 });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('fails after every try timed out', async () => {
    server().script(fault.slow(2_000), fault.slow(2_000), fault.slow(2_000));
    const error = await failureOf(complete({ timeoutMs: 100 }));
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error).toMatchObject({ status: undefined, attempts: 3 });
    expect(error.message).toContain('no answer within 100 ms');
  });

  it('stops when the caller aborts, without another try', async () => {
    // Prepare
    server().script(fault.slow(2_000), fault.slow(2_000));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    // Act
    const error = await failureOf(complete({ timeoutMs: 1_000, signal: controller.signal }));

    // Assess
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error.message).toContain('aborted');
    expect(server().requests).toHaveLength(1);
  });
}
