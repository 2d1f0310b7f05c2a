/**
 * The local stack's spawner: the runner's commands (git, the agent, the gates) start from a
 * small helper process, the spawn server (server-main.mjs beside this file).
 *
 * Node starts a child with fork() + exec() on the event loop's thread, and fork copies the
 * parent's page tables: the larger the process, the longer the loop stands still (about
 * 0.7 ms at 45 MB, 6 ms at 220 MB, 12 ms at 450 MB here; nodejs/node#14917). The local
 * stack runs the state machine, the handlers, dynalite, s3rver and the runner in one
 * process of some 200 MB, and an iteration runs git eight or nine times: most of the
 * local orchestration overhead was forks. The server is a plain `node` process of a few
 * tens of MB that forks for us; a request costs a pipe round trip instead.
 *
 * Protocol: one JSON line per request on the server's stdin: `{ id, kind: 'run', ...RunRequest }`
 * (a command run to its end, answered once: git) or `{ id, kind: 'stream', ...StreamRequest }`
 * (a command in a process group of its own, reported as it goes: the agent, the gates).
 * Each message back is one JSON line with `id`, `kind` and `payloadBytes`, followed by
 * exactly that many bytes, so that output is passed as bytes (a patch in a legacy encoding
 * survives): `result` (stdout then stderr as payload), or `started` (the pid), `data` (a
 * chunk), `exited`, `closed` for a stream.
 *
 * The server is started on the first request and does not keep this process alive when
 * idle. If it cannot be started, commands run in this process (agent/process/child-process-spawner.ts,
 * over the same `runProcess`). If it dies, the requests in flight fail and the next request
 * starts a new one.
 */
import { RalphError } from '../../lambdas/core/errors.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import {
  deliverStreamEvent,
  type RunRequest,
  type RunResult,
  type Spawner,
  type StreamClosed,
  type StreamEvent,
  type StreamHandlers,
  type StreamRequest,
} from '../../agent/process/spawner.js';

/** The server's script, beside this module. */
const SERVER_SCRIPT = fileURLToPath(new URL('./server-main.mjs', import.meta.url));

interface Pending {
  /** A message for this request; true when it was the last one. */
  receive(header: MessageHeader, payload: Buffer): boolean;
  reject(error: Error): void;
}

type MessageHeader =
  | ({ id: number; kind: 'result'; payloadBytes: number; stdoutBytes: number } & Omit<
      RunResult,
      'stdout' | 'stderr'
    >)
  | ({ id: number; payloadBytes: number } & StreamEvent);

/** The server went away while a command was in flight: whether it ran is not known. */
export class SpawnServerError extends RalphError {
  constructor(message: string) {
    super(message, { code: 'SPAWN_SERVER' });
    this.name = 'SpawnServerError';
  }
}

/**
 * @example
 * const server = new SpawnServer();
 * const result = await server.run({ file: 'git', args: ['rev-parse', 'HEAD'], cwd, env, ... });
 */
export class SpawnServer implements Spawner {
  #child: ChildProcess | undefined;
  #unavailable = false;
  /** Whether the current server has replied at least once. */
  #answered = false;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #header: MessageHeader | undefined;
  /** Runs the commands in this process when the server cannot be started. */
  readonly #local = new ChildProcessSpawner();

  constructor(private readonly script: string = SERVER_SCRIPT) {}

  /** Whether commands go through a server process (false after it failed to start). */
  get usesServer(): boolean {
    return !this.#unavailable;
  }

  /** Runs a command to its end (git). */
  run(request: RunRequest): Promise<RunResult> {
    const child = this.#unavailable ? undefined : this.#server();
    if (!child) return this.#local.run(request);
    return new Promise<RunResult>((resolve, reject) => {
      this.#send(
        child,
        { kind: 'run', ...request },
        {
          receive: (header, payload) => {
            if (header.kind !== 'result') return false;
            const { id, kind, payloadBytes, stdoutBytes, ...status } = header;
            resolve({
              ...status,
              // Copies: slices would keep the whole receive buffer alive.
              stdout: Buffer.from(payload.subarray(0, stdoutBytes)),
              stderr: Buffer.from(payload.subarray(stdoutBytes)),
            });
            return true;
          },
          reject,
        },
      );
    });
  }

  /**
   * Starts a command as the leader of a process group of its own and reports as it goes;
   * resolves once its output has closed. Ending it (its group) is the caller's business.
   */
  stream(request: StreamRequest, handlers: StreamHandlers = {}): Promise<StreamClosed> {
    const child = this.#unavailable ? undefined : this.#server();
    if (!child) return this.#local.stream(request, handlers);
    return new Promise<StreamClosed>((resolve, reject) => {
      this.#send(
        child,
        { kind: 'stream', ...request },
        {
          receive: (header, payload) => {
            if (header.kind === 'result') return false;
            const { id, payloadBytes, ...event } = header;
            const closed = deliverStreamEvent(handlers, event, Buffer.from(payload));
            if (closed) resolve(closed);
            return closed !== undefined;
          },
          reject,
        },
      );
    });
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

  #send(child: ChildProcess, request: object, pending: Pending): void {
    const id = this.#nextId;
    this.#nextId += 1;
    this.#pending.set(id, pending);
    this.#refWhileBusy();
    child.stdin?.write(`${JSON.stringify({ id, ...request })}\n`);
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
        this.#header = JSON.parse(data.subarray(0, newline).toString('utf8')) as MessageHeader;
        this.#keep(data.subarray(newline + 1));
      }
      const { payloadBytes } = this.#header;
      if (this.#buffered < payloadBytes) return;
      const data = this.#joined();
      const header = this.#header;
      this.#header = undefined;
      this.#keep(data.subarray(payloadBytes));
      this.#deliver(header, data.subarray(0, payloadBytes));
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

  #deliver(header: MessageHeader, payload: Buffer): void {
    this.#answered = true;
    const pending = this.#pending.get(header.id);
    if (!pending || !pending.receive(header, payload)) return;
    this.#pending.delete(header.id);
    this.#refWhileBusy();
  }
}
