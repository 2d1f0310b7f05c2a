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
 * This alone is not isolation: a process of the same uid can still read the runner's
 * `/proc/<pid>/environ`, hence the credential endpoint's address. In the container the agent,
 * the gates and git therefore also run as another, unprivileged user
 * (agent/process/confined-spawner.ts).
 */

/** Withheld by prefix (case-insensitive): the AWS SDK's and the ECS agent's variables. */
const WITHHELD_PREFIXES = ['AWS_', 'ECS_'] as const;
/** Withheld by name: the runner's own configuration (agent/main.ts). */
const WITHHELD_NAMES = new Set([
  'GIT_TOKEN',
  'TABLE_NAME',
  'BUCKET_NAME',
  'RALPH_RUNNER_ROLE_ARN',
  'RALPH_AGENT_MODEL_ROLE_ARN',
  'RALPH_AGENT_USER',
  'RALPH_WORKSPACE_ROOT',
]);

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

/**
 * The git config entry through which agent/git/command.ts hands git the token (an
 * `Authorization` header), set in the command's environment (`GIT_CONFIG_KEY_<n>`).
 */
export const GIT_CREDENTIAL_CONFIG_KEY = 'http.extraHeader';

/** Whether a command's environment hands git a credential. */
export function carriesGitCredentials(env: Readonly<Record<string, string>>): boolean {
  return Object.entries(env).some(
    ([name, value]) => name.startsWith('GIT_CONFIG_KEY_') && value === GIT_CREDENTIAL_CONFIG_KEY,
  );
}
