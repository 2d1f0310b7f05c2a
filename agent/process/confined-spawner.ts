/**
 * The agent, the gates and git run code the runner does not trust (the repository's, and
 * whatever the agent wrote). In the container the runner runs as root and every command it
 * starts runs as an unprivileged user instead, so that none of it can read what the runner
 * keeps to itself: its environment (`/proc/<pid>/environ` of another user is unreadable),
 * hence the credential endpoint's address and the git token, and its own files.
 *
 * Two things the runner does as root for them:
 * - before a long command (the agent, a gate, the evaluation suite), and before any command
 *   in a directory the user does not own yet (the clone's), the directory it runs in is
 *   handed to that user (`chown -R`, symbolic links themselves, never what they point at):
 *   the runner writes prd.json and progress.txt there, which the agent must be able to
 *   append to;
 * - before a command that carries the git token (a clone or push, agent/git/command.ts)
 *   every process of that user is killed, so that nothing the agent left running in the
 *   background can read the token from that command's environment.
 */
import { stat } from 'node:fs/promises';
import { carriesGitCredentials } from './environment.js';
import type { UntrustedIdentity } from './untrusted-identity.js';
import type {
  RunRequest,
  RunResult,
  Spawner,
  StreamClosed,
  StreamHandlers,
  StreamRequest,
} from './spawner.js';

const HOUSEKEEPING_TIMEOUT_MS = 120_000;

/**
 * @example
 * const spawner = new ConfinedSpawner(new ChildProcessSpawner(), findUser(passwd, 'agent'));
 */
export class ConfinedSpawner implements Spawner {
  readonly #inner: Spawner;
  readonly #identity: UntrustedIdentity;

  constructor(inner: Spawner, identity: UntrustedIdentity) {
    this.#inner = inner;
    this.#identity = identity;
  }

  async run(request: RunRequest): Promise<RunResult> {
    if (request.asRunner) return this.#inner.run(request);
    if (carriesGitCredentials(request.env)) await this.#endEverythingOfTheUser(request);
    if (!(await this.#owns(request.cwd))) await this.#handOver(request.cwd, request.env);
    return this.#inner.run(this.#confine(request));
  }

  async stream(request: StreamRequest, handlers?: StreamHandlers): Promise<StreamClosed> {
    await this.#handOver(request.cwd, request.env);
    return this.#inner.stream(this.#confine(request), handlers);
  }

  #confine<T extends RunRequest | StreamRequest>(request: T): T {
    const { uid, gid, home, name } = this.#identity;
    return {
      ...request,
      uid,
      gid,
      // The runner's HOME (/root) is not the agent's: its settings go to its own.
      env: { ...request.env, HOME: home, USER: name, LOGNAME: name },
    };
  }

  async #owns(dir: string): Promise<boolean> {
    try {
      return (await stat(dir)).uid === this.#identity.uid;
    } catch {
      // Not there: the command reports it.
      return true;
    }
  }

  /** The working copy (and what the runner wrote in it) now belongs to the user. */
  async #handOver(dir: string, env: Record<string, string>): Promise<void> {
    const { uid, gid } = this.#identity;
    const result = await this.#inner.run({
      ...housekeeping(dir, env),
      file: 'chown',
      args: ['-R', '-P', '--no-dereference', `${uid}:${gid}`, '--', dir],
    });
    if (result.exitCode !== 0)
      throw new Error(
        `could not hand ${dir} to ${this.#identity.name}: ${result.startError ?? result.problem ?? result.stderr.toString().trim()}`,
      );
  }

  /**
   * `kill -KILL -1` as the user: every process the user may signal, which is every process
   * of its own and nothing else. The command kills itself too, so its status says nothing.
   */
  async #endEverythingOfTheUser(request: RunRequest): Promise<void> {
    await this.#inner.run(
      this.#confine({
        ...housekeeping(request.cwd, {}),
        file: 'sh',
        args: ['-c', 'kill -KILL -1'],
      }),
    );
  }
}

/** A short command the runner runs for the confinement itself (no input, little output). */
function housekeeping(cwd: string, env: Record<string, string>): RunRequest {
  return {
    file: '',
    args: [],
    cwd,
    env: { PATH: env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: HOUSEKEEPING_TIMEOUT_MS,
    killGraceMs: 1_000,
    maxOutputBytes: 1024 * 1024,
  };
}
