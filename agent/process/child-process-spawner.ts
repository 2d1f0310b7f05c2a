/**
 * The spawner of the agent container: each command is a plain child process of the
 * runner. The container's process is small, so a fork costs little there (unlike the
 * local stack's, which passes its spawn server instead: local/spawn-server/).
 */
import { Buffer } from 'node:buffer';
import type { ChildProcess } from 'node:child_process';
import { runProcess, streamProcess } from './run-process.mjs';
import {
  deliverStreamEvent,
  type RunRequest,
  type RunResult,
  type Spawner,
  type StreamClosed,
  type StreamHandlers,
  type StreamRequest,
} from './spawner.js';

/**
 * @example
 * const spawner = new ChildProcessSpawner();
 * const result = await spawner.run({ file: 'git', args: ['--version'], cwd, env, ... });
 */
export class ChildProcessSpawner implements Spawner {
  /** The commands still running. */
  readonly #live = new Set<ChildProcess>();
  #endsLiveOnExit = false;

  run(request: RunRequest): Promise<RunResult> {
    this.#endLiveOnExit();
    return runProcess(request, this.#live);
  }

  stream(request: StreamRequest, handlers: StreamHandlers = {}): Promise<StreamClosed> {
    this.#endLiveOnExit();
    return new Promise((resolve) => {
      void streamProcess(request, this.#live, (event, payload) => {
        const closed = deliverStreamEvent(handlers, event, payload ?? Buffer.alloc(0));
        if (closed) resolve(closed);
      });
    });
  }

  /** Those still running when this process exits are ended (as execa's `cleanup` does). */
  #endLiveOnExit(): void {
    if (this.#endsLiveOnExit) return;
    this.#endsLiveOnExit = true;
    process.once('exit', () => {
      for (const child of this.#live) child.kill('SIGTERM');
    });
  }
}
