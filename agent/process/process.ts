/**
 * Runs one shell command (the agent, a gate) in its own process group, so that a timeout
 * or an abort ends everything the command started, grandchildren included.
 *
 * The spawner it is given starts the command (as a group leader) and relays its output;
 * ending the group is done here with `process.kill(-pid, signal)`, on a timeout, an abort,
 * or when the leader exits (an orphaned grandchild holding the pipes open would otherwise
 * keep the result from settling).
 *
 * The command never inherits the runner's credentials (agent/process/environment.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { untrustedEnvironment } from './environment.js';
import type { Spawner } from './spawner.js';

export type OutputStream = 'stdout' | 'stderr';

export interface RunCommandOptions {
  /** Starts the command: plain child processes, or the local spawn server. */
  spawner: Spawner;
  /** Run through `sh -c`. */
  command: string;
  cwd: string;
  /** Written to the command's stdin, which is then closed; without it stdin is empty. */
  stdin?: string;
  /**
   * Added to this process's environment minus the runner's credentials and configuration
   * (`untrustedEnvironment`): what is given here is passed as it is; `undefined` removes.
   */
  env?: Record<string, string | undefined>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Each decoded chunk as it arrives, in arrival order across both streams. */
  onOutput?: (stream: OutputStream, text: string) => void;
  /** Between SIGTERM and SIGKILL. Default 3000 ms. */
  killGraceMs?: number;
  /** Kept per stream; older output is dropped first. Default 4 MiB (in UTF-16 code units). */
  maxOutputChars?: number;
}

export interface CommandResult {
  /** `null` when the command was ended by a signal or never started. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Why the command could not start (bad cwd, ...). */
  spawnError?: string;
  /** The shell's pid, which is also the process group id. */
  pid?: number;
  stdout: string;
  stderr: string;
  /** Some early output was dropped to stay within `maxOutputChars`. */
  outputTruncated: boolean;
  durationMs: number;
}

const DEFAULT_GRACE_MS = 3_000;
const DEFAULT_MAX_OUTPUT_CHARS = 4 * 1024 * 1024;
const GROUP_POLL_MS = 50;

/**
 * Runs `command` and always resolves: failures are described by the result, never thrown.
 * When the command ends, whatever it left running in its group is ended too.
 *
 * @example
 * const result = await runCommand({ spawner, command: 'npm test', cwd: repo, timeoutMs: 600_000 });
 * if (result.exitCode !== 0) console.log(result.stderr);
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandResult> {
  const started = performance.now();
  const graceMs = options.killGraceMs ?? DEFAULT_GRACE_MS;
  const stdout = new TailBuffer(options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
  const stderr = new TailBuffer(options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS);
  const finish = (fields: Partial<CommandResult>, pid?: number): CommandResult => ({
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    stdout: stdout.text(),
    stderr: stderr.text(),
    outputTruncated: stdout.truncated || stderr.truncated,
    durationMs: performance.now() - started,
    ...(pid === undefined ? {} : { pid }),
    ...fields,
  });

  if (options.signal?.aborted) return finish({ aborted: true });

  let pid: number | undefined;
  let group: ProcessGroup | undefined;
  let timedOut = false;
  let aborted = false;
  let exited = false;
  const streams = {
    stdout: { buffer: stdout, decoder: new StringDecoder('utf8') },
    stderr: { buffer: stderr, decoder: new StringDecoder('utf8') },
  };
  const collect = (stream: OutputStream, text: string) => {
    if (text === '') return;
    streams[stream].buffer.push(text);
    options.onOutput?.(stream, text);
  };

  const timer = setTimeout(() => {
    if (exited) return;
    timedOut = true;
    void group?.terminate();
  }, options.timeoutMs);
  const onAbort = () => {
    if (exited) return;
    aborted = true;
    void group?.terminate();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const closed = options.spawner.stream(
    {
      file: 'sh',
      args: ['-c', options.command],
      cwd: options.cwd,
      env: commandEnvironment(options.env),
      ...(options.stdin === undefined ? {} : { input: options.stdin }),
    },
    {
      onStarted: (started) => {
        pid = started;
        group = new ProcessGroup(started, graceMs);
        // A timeout or an abort that came before the pid did.
        if (timedOut || aborted) void group.terminate();
      },
      onData: (stream, chunk) => collect(stream, streams[stream].decoder.write(chunk)),
      onExited: () => {
        exited = true;
        // Orphans that keep stdout open would otherwise hold the result back forever.
        void group?.terminate();
      },
    },
  );

  try {
    const result = await closed;
    for (const stream of ['stdout', 'stderr'] as const)
      collect(stream, streams[stream].decoder.end());
    if (result.startError !== undefined)
      return finish({ spawnError: result.startError, timedOut, aborted }, pid);
    return finish({ exitCode: result.exitCode, signal: result.signal, timedOut, aborted }, pid);
  } catch (error) {
    // The spawner failed (the spawn server went away): whether the command still runs is
    // not known; its group is ended below.
    return finish({ spawnError: (error as Error).message, timedOut, aborted }, pid);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await group?.terminate();
  }
}

/** What the command sees: the filtered environment of this process, then `extra`. */
function commandEnvironment(
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const env = untrustedEnvironment(process.env);
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Process groups still running, ended if this process exits first. */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
});

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: nothing left in the group.
    return false;
  }
}

class ProcessGroup {
  private ending: Promise<void> | undefined;

  constructor(
    private readonly pgid: number,
    private readonly graceMs: number,
  ) {
    liveGroups.add(pgid);
  }

  /** SIGTERM now, SIGKILL after the grace period; resolves once the group is empty. */
  terminate(): Promise<void> {
    this.ending ??= this.end();
    return this.ending;
  }

  private async end(): Promise<void> {
    if (signalGroup(this.pgid, 'SIGTERM')) {
      const deadline = performance.now() + this.graceMs;
      while (performance.now() < deadline && (await isGroupRunning(this.pgid)))
        await sleep(GROUP_POLL_MS);
      if (await isGroupRunning(this.pgid)) signalGroup(this.pgid, 'SIGKILL');
    }
    liveGroups.delete(this.pgid);
  }
}

/**
 * Whether any process of the group still runs. Orphans are re-parented to PID 1, which
 * may reap them late or (node as PID 1 in a container) never: their zombies still answer
 * `kill(-pgid, 0)`, so on Linux /proc tells the living from the dead.
 *
 * @example
 * if (await isGroupRunning(result.pid)) throw new Error('left a process behind');
 */
export async function isGroupRunning(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return true;
  }
  const states = await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map((name) => readFile(`/proc/${name}/stat`, 'utf8').catch(() => '')),
  );
  return states.some((stat) => {
    // `pid (comm) state ppid pgrp ...`; comm may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[2] === String(pgid) && fields[0] !== 'Z' && fields[0] !== 'X';
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keeps the last `limit` characters of a stream of chunks. */
export class TailBuffer {
  private chunks: string[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  push(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    while (this.size > this.limit && this.chunks.length > 0) {
      const first = this.chunks[0] ?? '';
      const excess = this.size - this.limit;
      this.truncated = true;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.slice(excess);
        this.size -= excess;
      }
    }
  }

  text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }
}
