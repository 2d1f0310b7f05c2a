/**
 * What an agent's session cost, when it says: Claude Code's stream-json ends with a `result`
 * event carrying `usage` and `total_cost_usd`. A plain agent says nothing, and nothing is
 * reported (never a made-up zero).
 */
import { transcriptLineEvents } from '../control/transcript/parse-stream-json.js';
import type { AnalysisPass } from '../schemas/investigation.js';

export type AgentUsage = Pick<AnalysisPass, 'tokens' | 'costUsd'>;

/**
 * The tokens and cost of the last `result` event in `stdout`; `{}` when there is none.
 *
 * @example
 * agentUsage('{"type":"result","total_cost_usd":0.12,"usage":{"input_tokens":900,"output_tokens":80}}')
 * // { tokens: { input: 900, output: 80 }, costUsd: 0.12 }
 */
export function agentUsage(stdout: string): AgentUsage {
  let usage: AgentUsage = {};
  for (const line of stdout.split('\n'))
    for (const event of transcriptLineEvents(line) ?? [])
      if (event.kind === 'result')
        usage = {
          ...(event.tokens ? { tokens: event.tokens } : {}),
          ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
        };
  return usage;
}
