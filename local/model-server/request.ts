/**
 * A request as the model double's responders and script matchers see it: the Messages API
 * body (Bedrock's too, with the path's model id in `model`), with the text of the system
 * prompt and of each message flattened.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The API a request was addressed to: the Messages API, or Bedrock's InvokeModel. */
export type ModelProtocol = 'messages' | 'bedrock';

/** A text, or a list of content blocks of which the text ones are read. */
type Content = string | { type: string; text?: string }[];

/** A Messages API request body, as far as the double reads it. */
export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  system?: Content;
  messages: { role: 'user' | 'assistant'; content: Content }[];
  temperature?: number;
  [field: string]: unknown;
}

/** A request as the responder and script matchers see it, text flattened. */
export interface ModelServerRequest {
  body: MessagesRequestBody;
  headers: IncomingHttpHeaders;
  system: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
  /** The text of the last user message. */
  lastUserText: string;
  /** The text of the first user message (the question, in a corrected conversation). */
  firstUserText: string;
  /** The API asked; for Bedrock, `body.model` is the path's model id. */
  protocol?: ModelProtocol;
}

/** Answers a request no script step takes, with the text of the model's answer. */
export type Responder = (request: ModelServerRequest) => string;

/**
 * The request a responder sees, for an admitted body.
 *
 * @example
 * toServerRequest({ model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'ping' }] }, {}, 'messages').lastUserText; // 'ping'
 */
export function toServerRequest(
  body: MessagesRequestBody,
  headers: IncomingHttpHeaders,
  protocol: ModelProtocol,
): ModelServerRequest {
  const messages = body.messages.map((message) => ({
    role: message.role,
    text: textOf(message.content),
  }));
  const userTexts = messages.filter((message) => message.role === 'user').map((m) => m.text);
  return {
    body,
    headers,
    system: body.system === undefined ? '' : textOf(body.system),
    messages,
    lastUserText: userTexts.at(-1) ?? '',
    firstUserText: userTexts[0] ?? '',
    protocol,
  };
}

function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []))
    .join('\n');
}
