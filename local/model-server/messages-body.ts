/**
 * The Messages API's own checks of a request body, which Bedrock makes too (after its
 * checks of `anthropic_version` and of keys that belong in the path).
 */

/**
 * What the API would refuse with 400 invalid_request_error, or undefined.
 *
 * @example
 * checkMessagesBody({ model: 'm', max_tokens: 0, messages: [] }); // 'max_tokens: must be a positive integer'
 */
export function checkMessagesBody(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'the body is not a JSON object';
  const candidate = body as Record<string, unknown>;
  if (typeof candidate.model !== 'string' || candidate.model === '') return 'model: field required';
  if (!Number.isInteger(candidate.max_tokens) || (candidate.max_tokens as number) < 1)
    return 'max_tokens: must be a positive integer';
  if (!Array.isArray(candidate.messages) || candidate.messages.length === 0)
    return 'messages: at least one message is required';
  for (const [index, message] of (candidate.messages as unknown[]).entries()) {
    const problem = checkMessage(message, index);
    if (problem) return problem;
  }
  if ((candidate.messages as { role: string }[])[0]?.role !== 'user')
    return 'messages: the first message must use the "user" role';
  return undefined;
}

function checkMessage(message: unknown, index: number): string | undefined {
  const { role, content } = (message ?? {}) as Record<string, unknown>;
  if (role !== 'user' && role !== 'assistant')
    return `messages.${index}.role: must be "user" or "assistant"`;
  if (typeof content !== 'string' && !Array.isArray(content))
    return `messages.${index}.content: must be a string or a list of blocks`;
  if (typeof content === 'string' && content === '')
    return `messages.${index}: text content blocks must be non-empty`;
  return undefined;
}
