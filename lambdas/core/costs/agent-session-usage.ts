/**
 * What an agent session reported it used, from its output: Claude Code's stream-json ends
 * with a `result` event carrying `usage`, `modelUsage` (per model) and `total_cost_usd`.
 * A plain agent says nothing, and nothing is reported (never a made-up zero).
 */
import { transcriptLineEvents } from '../control/transcript/parse-stream-json.js';
import type { AgentSessionUsage } from '../schemas/cost-receipt.js';
import type { AnalysisPass } from '../schemas/investigation.js';
import { roundTo } from '../shared/stats.js';

/** The model named when a session gives tokens but no model. */
export const UNKNOWN_MODEL = 'unknown';

/**
 * The usage of the last `result` event in `stdout`, per model when it says (`modelUsage`),
 * else as one line of the session's model (the `system` `init` event's); `undefined` when
 * there is no `result` event with tokens.
 *
 * @example
 * agentSessionUsage('{"type":"result","total_cost_usd":0.12,"usage":{"input_tokens":900,"output_tokens":80}}');
 * // { models: [{ model: 'unknown', inputTokens: 900, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.12 }], totalCostUsd: 0.12 }
 */
export function agentSessionUsage(stdout: string): AgentSessionUsage | undefined {
  let sessionModel: string | undefined;
  let usage: AgentSessionUsage | undefined;
  for (const line of stdout.split('\n'))
    for (const event of transcriptLineEvents(line) ?? []) {
      if (event.kind === 'session' && event.model) sessionModel = event.model;
      if (event.kind !== 'result') continue;
      const total = event.costUsd === undefined ? {} : { totalCostUsd: event.costUsd };
      if (event.models) usage = { models: event.models, ...total };
      else if (event.tokens) {
        const read = event.cache?.read ?? 0;
        const write = event.cache?.write ?? 0;
        usage = {
          models: [
            {
              model: sessionModel ?? UNKNOWN_MODEL,
              inputTokens: Math.max(0, event.tokens.input - read - write),
              outputTokens: event.tokens.output,
              cacheReadTokens: read,
              cacheWriteTokens: write,
              ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
            },
          ],
          ...total,
        };
      }
    }
  return usage;
}

/**
 * An investigation's passes (a fresh agent each) as one line of usage: a pass keeps its
 * tokens and cost but not its model (`unknown`). The cost is the agents' own only when
 * every pass that counted tokens gave one; otherwise the line is priced.
 *
 * @example
 * passesUsage([{ tokens: { input: 900, output: 80 }, costUsd: 0.12, ... }]);
 * // { models: [{ model: 'unknown', inputTokens: 900, outputTokens: 80, ..., costUsd: 0.12 }], totalCostUsd: 0.12 }
 */
export function passesUsage(
  passes: readonly Pick<AnalysisPass, 'tokens' | 'costUsd'>[],
): AgentSessionUsage | undefined {
  const counted = passes.filter((pass) => pass.tokens || pass.costUsd !== undefined);
  if (counted.length === 0) return undefined;
  const costs = counted.map((pass) => pass.costUsd);
  const reported = costs.every((cost) => cost !== undefined)
    ? roundTo(
        costs.reduce((sum: number, cost) => sum + (cost ?? 0), 0),
        6,
      )
    : undefined;
  const own = reported === undefined ? {} : { costUsd: reported };
  return {
    models: [
      {
        model: UNKNOWN_MODEL,
        inputTokens: counted.reduce((sum, pass) => sum + (pass.tokens?.input ?? 0), 0),
        outputTokens: counted.reduce((sum, pass) => sum + (pass.tokens?.output ?? 0), 0),
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        ...own,
      },
    ],
    ...(reported === undefined ? {} : { totalCostUsd: reported }),
  };
}
