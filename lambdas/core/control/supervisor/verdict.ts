/**
 * The supervisor's verdict: the first of its rules (`rules.ts`, the design's section 1.4
 * decision tree) that holds for the run's trends, else PROCEED.
 */
import type { SupervisorVerdict } from '../../schemas/control-decisions.js';
import type { RunTrends } from '../facts/run-trends.js';
import { firstRuling } from '../rules.js';
import { healthy, SUPERVISOR_RULES, type SupervisorConfig } from './rules.js';

/**
 * What the supervisor rules, from the run's trends.
 *
 * @example
 * supervisorVerdict(runTrends(history, config), config);
 * // { verdict: 'ABORT', rule: 'low_pass_rate', reason: 'test pass rate 40% is below 50%' }
 */
export function supervisorVerdict(trends: RunTrends, config: SupervisorConfig): SupervisorVerdict {
  return firstRuling(SUPERVISOR_RULES, trends, config) ?? healthy(trends);
}
