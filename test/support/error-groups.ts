/** Error groups for tests, as the hooks store them (parsed with the real schema). */
import { ErrorGroupSchema, type ErrorGroup } from '../../lambdas/core/schemas/error-group.js';

const RECEIVED = '2025-01-15T12:00:00.000Z';

/** An error group as the hooks store it: a Sentry issue with in-app and library frames. */
export function makeErrorGroup(
  fingerprint: string,
  title: string,
  file = 'src/cart.mjs',
  line = 3,
): ErrorGroup {
  return ErrorGroupSchema.parse({
    source: 'sentry',
    fingerprint,
    projectId: 'shop',
    status: 'investigating',
    latest: {
      source: 'sentry',
      delivery: 'issue',
      action: 'created',
      senderAction: 'created',
      fingerprint,
      title,
      culprit: `total(${file})`,
      detail: "Cannot read properties of undefined (reading 'percent')",
      level: 'error',
      counts: { seen: 42, usersAffected: 7 },
      frames: [
        { filename: 'node:internal/process', function: 'processTicks', inApp: false },
        { filename: 'src/checkout.mjs', function: 'checkout', lineno: 12, inApp: true },
        {
          filename: file,
          function: 'total',
          lineno: line,
          inApp: true,
          contextLine: '  return sum - (sum * discount.percent) / 100;',
        },
      ],
      tags: { environment: 'production', release: 'shop@1.4.2' },
      links: { web: `https://sentry.example/issues/${fingerprint}/` },
      route: { kind: 'sentry-project', keys: ['shop'] },
    },
    deliveries: 3,
    seen: 42,
    usersAffected: 7,
    firstReceivedAt: RECEIVED,
    lastReceivedAt: RECEIVED,
    version: 1,
  });
}
