/**
 * Runs the runner's git commands from a small helper process, the spawn server.
 *
 * Node starts a child with fork() + exec() on the event loop's thread, and fork copies the
 * parent's page tables: the larger the process, the longer the loop stands still (about
 * 0.7 ms at 45 MB, 6 ms at 220 MB, 12 ms at 450 MB here; nodejs/node#14917). The local
 * stack runs the state machine, the handlers, dynalite, s3rver and the runner in one
 * process of some 200 MB, and an iteration runs git eight or nine times: most of the
 * local orchestration overhead was forks. The server is a plain `node` process of a few
 * tens of MB that forks for us; a request costs a pipe round trip instead.
 *
 * Protocol: one JSON line per request on the server's stdin (`{ id, ...RunRequest }`); per
 * reply, one JSON line (`{ id, exitCode, signal, problem?, startError?, stdoutBytes,
 * stderrBytes }`) followed by exactly that many bytes of stdout, then of stderr, so that
 * output is passed as bytes (a patch in a legacy encoding survives).
 *
 * The server is started on the first request and does not keep this process alive when
 * idle. If it cannot be started, commands run in this process (the same `runProcess`). If
 * it dies, the requests in flight fail and the next request starts a new one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runProcess, type RunRequest, type RunResult } from './run-process.mjs';

export type { RunRequest, RunResult };

/** Where the server's script is: beside this module, or beside the bundle that holds it. */
const SERVER_SCRIPT = fileURLToPath(new URL('./spawn-server.mjs', import.meta.url));

interface Pending {
  resolve(result: RunResult): void;
  reject(error: Error): void;
}

interface ReplyHeader {
  id: number;
  exitCode: number | null;
  signal: string | null;
  problem?: string;
  startError?: string;
  stdoutBytes: number;
  stderrBytes: number;
}

/** The server went away while a command was in flight: whether it ran is not known. */
export class SpawnServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpawnServerError';
  }
}

/**
 * @example
 * const server = new SpawnServer();
 * const result = await server.run({ file: 'git', args: ['rev-parse', 'HEAD'], cwd, env, ... });
 */
export class SpawnServer {
  #child: ChildProcess | undefined;
  #unavailable = false;
  /** Whether the current server has replied at least once. */
  #answered = false;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #header: ReplyHeader | undefined;
  /** Commands run in this process when the server cannot be started. */
  readonly #local = new Set<ChildProcess>();
  /** Those still running when this process exits are ended (as execa's `cleanup` does). */
  #endsLocalOnExit = false;

  constructor(private readonly script: string = SERVER_SCRIPT) {}

  /** Whether commands go through a server process (false after it failed to start). */
  get usesServer(): boolean {
    return !this.#unavailable;
  }

  run(request: RunRequest): Promise<RunResult> {
    const child = this.#unavailable ? undefined : this.#server();
    if (!child) {
      if (this.#local.size === 0 && !this.#endsLocalOnExit) {
        this.#endsLocalOnExit = true;
        process.once('exit', () => {
          for (const local of this.#local) local.kill('SIGTERM');
        });
      }
      return runProcess(request, this.#local);
    }
    const id = this.#nextId;
    this.#nextId += 1;
    const reply = new Promise<RunResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
    });
    this.#refWhileBusy();
    child.stdin?.write(`${JSON.stringify({ id, ...request })}\n`);
    return reply;
  }

  /** The server's pid while it runs (for diagnostics and tests). */
  get serverPid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Stops the server: the commands it still runs get SIGTERM and their requests fail. The
   * next request starts a new server.
   */
  close(): void {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    this.#failPending(new SpawnServerError('the spawn server was closed'));
    child.stdin?.end();
  }

  #server(): ChildProcess | undefined {
    if (this.#child) return this.#child;
    // A bundle shipped without the server's script: no request should fail for that.
    if (!existsSync(this.script)) {
      this.#unavailable = true;
      return undefined;
    }
    let child: ChildProcess;
    try {
      // No inherited environment: every request carries the command's own, and the
      // server must not pick up NODE_OPTIONS (a loader such as tsx) meant for this process.
      child = spawn(process.execPath, [this.script], {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: {},
        windowsHide: true,
      });
    } catch {
      this.#unavailable = true;
      return undefined;
    }
    this.#child = child;
    this.#answered = false;
    this.#chunks = [];
    this.#buffered = 0;
    this.#header = undefined;
    child.unref();
    (child.stdin as Socket | null)?.unref();
    child.stdin?.on('error', () => undefined);
    child.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk));
    child.once('error', (error) => this.#lost(child, `could not start: ${error.message}`));
    child.once('exit', (code, signal) =>
      this.#lost(child, `exited (${signal ?? `code ${code ?? '?'}`})`),
    );
    return child;
  }

  /**
   * The server is gone: its requests in flight fail. One that never answered (it could not
   * be started, or its script failed to load) is not started again: commands run in this
   * process from now on.
   */
  #lost(child: ChildProcess, why: string): void {
    if (this.#child !== child) return;
    this.#child = undefined;
    if (!this.#answered) this.#unavailable = true;
    this.#failPending(new SpawnServerError(`the spawn server ${why}`));
  }

  #failPending(error: SpawnServerError): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /** Keeps this process alive while replies are awaited, and only then. */
  #refWhileBusy(): void {
    const stdout = this.#child?.stdout as Socket | null | undefined;
    if (this.#pending.size > 0) stdout?.ref();
    else stdout?.unref();
  }

  #receive(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    for (;;) {
      if (!this.#header) {
        // Joined only once the header's line is complete: a large reply comes in many
        // chunks, and joining on each would copy it over and over.
        if (!this.#chunks.some((part) => part.includes(0x0a))) return;
        const data = this.#joined();
        const newline = data.indexOf(0x0a);
        this.#header = JSON.parse(data.subarray(0, newline).toString('utf8')) as ReplyHeader;
        this.#keep(data.subarray(newline + 1));
      }
      const { stdoutBytes, stderrBytes } = this.#header;
      if (this.#buffered < stdoutBytes + stderrBytes) return;
      const data = this.#joined();
      const header = this.#header;
      this.#header = undefined;
      this.#keep(data.subarray(stdoutBytes + stderrBytes));
      this.#settle(
        header,
        data.subarray(0, stdoutBytes),
        data.subarray(stdoutBytes, stdoutBytes + stderrBytes),
      );
    }
  }

  /** Everything buffered, as one Buffer (and kept buffered). */
  #joined(): Buffer {
    const data = Buffer.concat(this.#chunks, this.#buffered);
    this.#chunks = [data];
    return data;
  }

  #keep(rest: Buffer): void {
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#buffered = rest.length;
  }

  #settle(header: ReplyHeader, stdout: Buffer, stderr: Buffer): void {
    this.#answered = true;
    const pending = this.#pending.get(header.id);
    if (!pending) return;
    this.#pending.delete(header.id);
    this.#refWhileBusy();
    pending.resolve({
      // Copies: the slices would otherwise keep the whole receive buffer alive.
      stdout: Buffer.from(stdout),
      stderr: Buffer.from(stderr),
      exitCode: header.exitCode,
      signal: header.signal,
      ...(header.problem === undefined ? {} : { problem: header.problem }),
      ...(header.startError === undefined ? {} : { startError: header.startError }),
    });
  }
}
