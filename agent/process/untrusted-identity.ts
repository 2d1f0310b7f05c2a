/**
 * The unprivileged user the agent, the gates and git run as in the container (the Dockerfile
 * creates it and names it in `RALPH_AGENT_USER`), looked up by name in `/etc/passwd`.
 */
import { ConfigurationError } from '../../lambdas/core/errors.js';

/** Who an untrusted command runs as. */
export interface UntrustedIdentity {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
  /** Its home directory: where the agent keeps its own settings (`~/.claude`...). */
  readonly home: string;
}

/**
 * Finds `name` in the text of `/etc/passwd`. Root (uid 0) is refused: running the agent as
 * root would confine nothing.
 *
 * @example
 * const agent = findUser(await readFile('/etc/passwd', 'utf8'), 'agent');
 */
export function findUser(passwd: string, name: string): UntrustedIdentity {
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid, , home] = line.split(':');
    if (user !== name || uid === undefined || gid === undefined) continue;
    const identity = { name, uid: Number(uid), gid: Number(gid), home: home || '/' };
    if (!Number.isSafeInteger(identity.uid) || !Number.isSafeInteger(identity.gid))
      throw new ConfigurationError(
        `RALPH_AGENT_USER: /etc/passwd has a malformed line for ${name}`,
      );
    if (identity.uid === 0)
      throw new ConfigurationError(
        `RALPH_AGENT_USER: ${name} is root (uid 0); the agent must run as an unprivileged user`,
      );
    return identity;
  }
  throw new ConfigurationError(
    `RALPH_AGENT_USER: no user ${name} in /etc/passwd (the agent image creates one named agent)`,
  );
}
