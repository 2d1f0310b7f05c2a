// @ts-check
/**
 * Starts one command and watches it: `runProcess` runs a short command to its end and
 * collects its output (git), `streamProcess` reports a command in a process group of its
 * own as it goes (the agent, the gates). Both spawners run commands through these: the
 * container's plain child processes (agent/process/child-process-spawner.ts) and the local spawn
 * server (local/spawn-server/server-main.mjs). Plain JavaScript, so that the server starts
 * with `node` alone: a small process, whose forks are cheap (see
 * local/spawn-server/spawn-server.ts for why that matters).
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';

/**
 * @typedef {object} RunRequest
 * @property {string} file The program, found on `env.PATH`.
 * @property {string[]} args
 * @property {string} cwd
 * @property {Record<string, string>} env The whole environment of the command.
 * @property {string} [input] Written to stdin, which is then closed; without it stdin is empty.
 * @property {number} timeoutMs Past it the command gets SIGTERM, then SIGKILL.
 * @property {number} killGraceMs Between SIGTERM and SIGKILL.
 * @property {number} maxOutputBytes More stdout than this stops the command.
 * @property {number} [uid] Run as this user (the runner must be root): agent/process/confined-spawner.ts.
 * @property {number} [gid] Run with this group, and no supplementary groups.
 * @property {boolean} [asRunner] The runner's own command, run as the runner even where the
 *   others are confined: only for one that reads no configuration, hooks or files the agent
 *   could have written as code (the push from a scratch repository, agent/git/remote.ts).
 */

/**
 * @typedef {object} RunResult
 * @property {Buffer} stdout
 * @property {Buffer} stderr
 * @property {number | null} exitCode `null` when ended by a signal or never started.
 * @property {string | null} signal
 * @property {string} [problem] Why the command was stopped (timeout, output limit), or a signal could not be sent.
 * @property {string} [startError] Why the command could not start (no such program, no such cwd).
 */

/**
 * Spawns the command (the leader of a process group of its own when `detached`), holds it
 * in `live` and writes its input.
 *
 * @param {RunRequest | StreamRequest} request
 * @param {Set<import('node:child_process').ChildProcess>} live
 * @param {{ detached: boolean }} options
 */
function start(request, live, { detached }) {
  const child = spawn(request.file, request.args, {
    cwd: request.cwd,
    env: request.env,
    stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    detached,
    windowsHide: true,
    // Node drops the supplementary groups (setgroups) before setgid and setuid.
    ...(request.uid === undefined ? {} : { uid: request.uid }),
    ...(request.gid === undefined ? {} : { gid: request.gid }),
  });
  live.add(child);
  if (request.input !== undefined) {
    // The command may exit without reading its input (EPIPE): its exit status tells.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(request.input);
  }
  return child;
}

/**
 * @param {RunRequest} request
 * @param {Set<import('node:child_process').ChildProcess>} live Holds the command while it runs.
 * @returns {Promise<RunResult>}
 */
export function runProcess(request, live) {
  return new Promise((resolve) => {
    const child = start(request, live, { detached: false });
    /** @type {Buffer[]} */
    const stdout = [];
    /** @type {Buffer[]} */
    const stderr = [];
    let size = 0;
    /** @type {string | undefined} */
    let problem;
    /** @type {NodeJS.Timeout | undefined} */
    let forceKill;
    /** @param {string} why */
    const stop = (why) => {
      problem ??= why;
      child.kill('SIGTERM');
      forceKill ??= setTimeout(() => child.kill('SIGKILL'), request.killGraceMs);
    };
    const timer = setTimeout(
      () => stop(`timed out after ${request.timeoutMs} ms`),
      request.timeoutMs,
    );
    child.stdout?.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size > request.maxOutputBytes) stop(`output exceeded ${request.maxOutputBytes} bytes`);
      else stdout.push(chunk);
    });
    child.stderr?.on('data', (/** @type {Buffer} */ chunk) => stderr.push(chunk));
    let settled = false;
    /**
     * @param {number | null} exitCode
     * @param {string | null} signal
     * @param {string} [startError]
     */
    const settle = (exitCode, signal, startError) => {
      if (settled) return;
      settled = true;
      live.delete(child);
      clearTimeout(timer);
      clearTimeout(forceKill);
      resolve({
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr),
        exitCode,
        signal,
        ...(problem === undefined ? {} : { problem }),
        ...(startError === undefined ? {} : { startError }),
      });
    };
    child.on('error', (error) => {
      // Not started (no program, no such cwd): 'close' may never come. Otherwise a signal
      // could not be sent, and 'close' still comes.
      if (child.pid === undefined) settle(null, null, error.message);
      else problem ??= error.message;
    });
    child.once('close', (exitCode, signal) => settle(exitCode, signal));
  });
}

/**
 * @typedef {object} StreamRequest
 * @property {string} file The program, found on `env.PATH`.
 * @property {string[]} args
 * @property {string} cwd
 * @property {Record<string, string>} env The whole environment of the command.
 * @property {string} [input] Written to stdin, which is then closed; without it stdin is empty.
 * @property {number} [uid] Run as this user (the runner must be root): agent/process/confined-spawner.ts.
 * @property {number} [gid] Run with this group, and no supplementary groups.
 */

/**
 * @typedef {{ kind: 'started', pid: number }
 *   | { kind: 'data', stream: 'stdout' | 'stderr' }
 *   | { kind: 'exited', exitCode: number | null, signal: string | null }
 *   | { kind: 'closed', exitCode: number | null, signal: string | null, startError?: string }} StreamEvent
 */

/**
 * Starts one command as the leader of a process group of its own and reports as it goes:
 * `started` (its pid, which is the group id), its output as it comes (`data`, the chunk
 * as payload), `exited` (the leader ended; orphans may still hold its output open), and
 * `closed` (its output ended). Ending the command, or its group, is the caller's business
 * (agent/process/process.ts): this only starts and watches.
 *
 * @param {StreamRequest} request
 * @param {Set<import('node:child_process').ChildProcess>} live Holds the command while it runs.
 * @param {(event: StreamEvent, payload?: Buffer) => void} emit
 * @returns {Promise<void>} Settles after `closed`.
 */
export function streamProcess(request, live, emit) {
  return new Promise((resolve) => {
    const child = start(request, live, { detached: true });
    let closed = false;
    /**
     * @param {number | null} exitCode
     * @param {string | null} signal
     * @param {string} [startError]
     */
    const close = (exitCode, signal, startError) => {
      if (closed) return;
      closed = true;
      live.delete(child);
      emit({
        kind: 'closed',
        exitCode,
        signal,
        ...(startError === undefined ? {} : { startError }),
      });
      resolve();
    };
    child.on('error', (error) => {
      // Not started (no program, no such cwd): 'close' may never come.
      if (child.pid === undefined)
        close(null, null, `could not start ${request.file} in ${request.cwd}: ${error.message}`);
    });
    if (child.pid !== undefined) emit({ kind: 'started', pid: child.pid });
    child.stdout?.on('data', (/** @type {Buffer} */ chunk) =>
      emit({ kind: 'data', stream: 'stdout' }, chunk),
    );
    child.stderr?.on('data', (/** @type {Buffer} */ chunk) =>
      emit({ kind: 'data', stream: 'stderr' }, chunk),
    );
    child.once('exit', (exitCode, signal) => emit({ kind: 'exited', exitCode, signal }));
    child.once('close', (exitCode, signal) => close(exitCode, signal));
  });
}
