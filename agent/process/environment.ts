/**
 * The environment of what the runner starts but does not trust: the agent, the gates (which
 * run the agent's code) and git on the working copy the agent had (whose `.git/config` and
 * hooks the agent could have rewritten).
 *
 * The runner's own environment holds what lets it write the run's state: the task role's
 * credentials (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`, or `AWS_ACCESS_KEY_ID`... locally),
 * endpoint overrides, the ECS metadata endpoint, the git token, and the table and bucket
 * names. With those an agent could write its own `result.json` with `outcome: passed`
 * before the runner does, or change the run's records. So none of them is inherited; what
 * a run's config sets explicitly (`config.agent.env`, e.g. credentials for Bedrock) is still
 * passed, and so is everything else (`ANTHROPIC_API_KEY`, `PATH`, `HOME`...).
 *
 * This is not isolation. A process of the same uid can still read the runner's
 * `/proc/<pid>/environ` and reach the credential endpoint (169.254.170.2) itself. In the
 * container, the agent and the gates should also run as a separate uid without access to
 * that endpoint (not done here).
 */

/** Withheld by prefix (case-insensitive): the AWS SDK's and the ECS agent's variables. */
const WITHHELD_PREFIXES = ['AWS_', 'ECS_'] as const;
/** Withheld by name: the runner's own configuration (agent/main.ts). */
const WITHHELD_NAMES = new Set(['GIT_TOKEN', 'TABLE_NAME', 'BUCKET_NAME']);

/** Whether the runner keeps `name` to itself. */
export function isWithheld(name: string): boolean {
  const upper = name.toUpperCase();
  return WITHHELD_NAMES.has(upper) || WITHHELD_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/**
 * `env` without the runner's credentials and configuration (and without unset entries).
 *
 * @example
 * const env = untrustedEnvironment(process.env); // AWS_*, ECS_*, GIT_TOKEN... left out
 */
export function untrustedEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !isWithheld(name)) out[name] = value;
  return out;
}
