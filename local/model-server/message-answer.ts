/**
 * The body of a successful answer, the Messages API's (Bedrock answers with the same):
 * the text, cut at `max_tokens` like the API does, and a token usage estimated at about
 * four characters a token.
 */
import type { ModelServerRequest } from './request.js';

/** Token counts, as the API reports them. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/** A Messages API answer body with one text block. */
export interface MessageBody {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: { type: 'text'; text: string }[];
  stop_reason: string;
  stop_sequence: null;
  usage: Usage;
}

/**
 * The answer `text` to `request`, numbered `number` (`msg_offline_000001`); a text
 * without its own `stopReason` is cut at `max_tokens` and says so.
 *
 * @example
 * messageAnswer(1, request, 'pong').stop_reason; // 'end_turn'
 */
export function messageAnswer(
  number: number,
  request: ModelServerRequest,
  text: string,
  stopReason?: string,
): MessageBody {
  // Like the API, stop at max_tokens (about four characters a token).
  const limit = request.body.max_tokens * 4;
  const cut = stopReason === undefined && text.length > limit;
  const shown = cut ? text.slice(0, limit) : text;
  return {
    id: `msg_offline_${String(number).padStart(6, '0')}`,
    type: 'message',
    role: 'assistant',
    model: request.body.model,
    content: [{ type: 'text', text: shown }],
    stop_reason: stopReason ?? (cut ? 'max_tokens' : 'end_turn'),
    stop_sequence: null,
    usage: {
      input_tokens: estimateTokens(
        request.system + request.messages.map((message) => message.text).join(''),
      ),
      output_tokens: estimateTokens(shown),
    },
  };
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
