/**
 * The parts of GitHub's REST answers the adapter reads, parsed with zod (anything else in
 * the answer is ignored), and GitHub's error body.
 */
import { z } from 'zod';
import type { CodeHostRepository, PullRequest } from '../../ports.js';

export const repositorySchema = z.object({
  name: z.string(),
  owner: z.object({ login: z.string() }),
  default_branch: z.string(),
  private: z.boolean(),
  html_url: z.string(),
});

export const pullRequestSchema = z.object({
  number: z.number().int(),
  html_url: z.string(),
  state: z.enum(['open', 'closed']),
  draft: z.boolean().optional(),
  title: z.string(),
  head: z.object({ ref: z.string() }),
  base: z.object({ ref: z.string() }),
});

export const pullRequestListSchema = z.array(pullRequestSchema);

export const issueCommentSchema = z.object({ id: z.number().int(), html_url: z.string() });

export const installationTokenSchema = z.object({
  token: z.string().min(1),
  expires_at: z.string(),
});

/** GitHub's error body: `{ message, errors?: [{ resource, code, message? }], documentation_url }`. */
const errorBodySchema = z.object({
  message: z.string().optional(),
  errors: z
    .array(z.union([z.string(), z.object({ message: z.string().optional() }).loose()]))
    .optional(),
});

/**
 * Every message in an error body, top level first: GitHub puts "Validation Failed" at the
 * top and the reason ("A pull request already exists for o:b.") in `errors[].message`.
 *
 * @example
 * errorMessages({ message: 'Validation Failed', errors: [{ message: 'A pull request already exists for o:b.' }] });
 * // ['Validation Failed', 'A pull request already exists for o:b.']
 */
export function errorMessages(body: unknown): string[] {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return typeof body === 'string' && body !== '' ? [body.slice(0, 200)] : [];
  const nested = (parsed.data.errors ?? []).flatMap((error) =>
    typeof error === 'string' ? [error] : error.message === undefined ? [] : [error.message],
  );
  return [...(parsed.data.message === undefined ? [] : [parsed.data.message]), ...nested];
}

export function toRepository(body: z.infer<typeof repositorySchema>): CodeHostRepository {
  return {
    owner: body.owner.login,
    name: body.name,
    defaultBranch: body.default_branch,
    private: body.private,
    htmlUrl: body.html_url,
  };
}

export function toPullRequest(body: z.infer<typeof pullRequestSchema>): PullRequest {
  return {
    number: body.number,
    htmlUrl: body.html_url,
    state: body.state,
    draft: body.draft ?? false,
    title: body.title,
    head: body.head.ref,
    base: body.base.ref,
  };
}
