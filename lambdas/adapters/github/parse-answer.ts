import type { z } from 'zod';
import { RalphError } from '../../core/errors.js';
import { formatZodIssues } from '../../core/shared/validation.js';
import type { GitHubAnswer } from './github-http.js';

/**
 * A successful answer's body, parsed; an answer GitHub should not have given (another API
 * behind the base URL, a proxy's page) is a RalphError naming the call and what is wrong.
 *
 * @example
 * const repo = parseAnswer(repositorySchema, answer, 'read o/r');
 */
export function parseAnswer<S extends z.ZodType>(
  schema: S,
  answer: GitHubAnswer,
  operation: string,
): z.output<S> {
  const parsed = schema.safeParse(answer.body);
  if (parsed.success) return parsed.data;
  throw new RalphError(
    `${operation}: GitHub answered ${answer.status} at ${answer.where} in an unexpected shape (${formatZodIssues(parsed.error).join('; ')}); is the API base URL a GitHub REST API?`,
    { code: 'CODE_HOST_UNEXPECTED_ANSWER' },
  );
}
