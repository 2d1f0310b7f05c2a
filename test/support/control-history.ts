/**
 * Loop control's iteration history for unit tests: entries parsed by the real schema, on
 * top of defaults each test file chooses (a stuck failure, or a pass).
 */
import {
  IterationSummarySchema,
  type IterationSummary,
  type IterationSummaryInput,
} from '../../lambdas/core/schemas/control-history.js';

export type SummaryOverrides = Partial<IterationSummaryInput>;

/**
 * @example
 * const { entry, history, repeat } = historyFactory({ outcome: 'passed', committed: true });
 * history(...repeat(5, { errorSignature: 'TS2322' })) // iterations 1..5
 */
export function historyFactory(defaults: SummaryOverrides = {}) {
  const entry = (overrides: SummaryOverrides = {}): IterationSummary =>
    IterationSummarySchema.parse({
      iteration: 1,
      taskId: 'US-001',
      mode: 'implementer',
      outcome: 'gates_failed',
      committed: false,
      meaningfulChange: false,
      endedAt: '2025-01-01T00:00:00Z',
      ...defaults,
      ...overrides,
    });
  /** One entry per argument, numbered from 1. */
  const history = (...entries: SummaryOverrides[]): IterationSummary[] =>
    entries.map((overrides, index) => entry({ iteration: index + 1, ...overrides }));
  const repeat = (times: number, overrides: SummaryOverrides = {}): SummaryOverrides[] =>
    Array.from({ length: times }, () => overrides);
  return { entry, history, repeat };
}
