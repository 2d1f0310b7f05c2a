/**
 * How the GitHub adapter reaches GitHub: where (api.github.com, a GitHub Enterprise server,
 * or the local double), as whom (a GitHub App installation or a plain token), and how
 * patiently (per-call timeout, tries, backoff, the longest rate-limit wait).
 */
import { z } from 'zod';

/** A plain token (a fine-grained or classic personal access token, or any bearer token). */
const tokenCredentials = z.strictObject({
  kind: z.literal('token'),
  token: z.string().min(1),
});

/** A GitHub App: its id, its private key (PEM) and the installation to act as. */
const appCredentials = z.strictObject({
  kind: z.literal('app'),
  appId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/, 'digits only')]),
  installationId: z.number().int().positive(),
  privateKeyPem: z.string().includes('PRIVATE KEY', { message: 'a PEM private key' }),
});

export const gitHubCredentialsSchema = z.discriminatedUnion('kind', [
  tokenCredentials,
  appCredentials,
]);
export type GitHubCredentials = z.infer<typeof gitHubCredentialsSchema>;
export type GitHubAppCredentials = z.infer<typeof appCredentials>;

export const gitHubConfigSchema = z.strictObject({
  /** GitHub Enterprise: `https://HOST/api/v3`; the double: its `url`. */
  apiBaseUrl: z.url().default('https://api.github.com'),
  userAgent: z.string().min(1).default('ralph-cloud'),
  /** Bound on one HTTP try. */
  timeoutMs: z.number().int().positive().default(10_000),
  /** Tries per call, the first included. */
  maxTries: z.number().int().min(1).max(10).default(4),
  /** Delay before the second try; doubles each try, up to `maxBackoffMs`. */
  initialBackoffMs: z.number().int().nonnegative().default(500),
  maxBackoffMs: z.number().int().nonnegative().default(8_000),
  /**
   * The longest rate-limit wait a call makes; GitHub asking for longer fails the call at
   * once (the step is retried later, which is better than sleeping in a Lambda).
   */
  maxRateLimitWaitMs: z.number().int().nonnegative().default(60_000),
  /** The wait after a secondary rate limit that names none (GitHub: "at least one minute"). */
  secondaryRateLimitWaitMs: z.number().int().nonnegative().default(60_000),
  credentials: gitHubCredentialsSchema,
});
export type GitHubConfigInput = z.input<typeof gitHubConfigSchema>;
export type GitHubConfig = z.output<typeof gitHubConfigSchema>;
