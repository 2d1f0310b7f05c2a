// @ts-check
/**
 * The spawn server: starts commands for the process that started it, which talks to it
 * over stdin and stdout (protocol in spawn-server.ts beside it). It ends when its stdin closes,
 * that is when that process goes away, and then stops whatever it still runs.
 */
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { runProcess, streamProcess } from '../../agent/process/run-process.mjs';

/** Commands run to their end and answered once (`run`): git. */
/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
/** Commands reported as they go (`stream`), each the leader of its own process group. */
/** @type {Set<import('node:child_process').ChildProcess>} */
const streaming = new Set();

/**
 * One message: a JSON header line, then `payloadBytes` bytes.
 *
 * @param {Record<string, unknown>} header
 * @param {Buffer[]} payload
 */
function send(header, payload = []) {
  const payloadBytes = payload.reduce((sum, part) => sum + part.length, 0);
  const line = Buffer.from(`${JSON.stringify({ ...header, payloadBytes })}\n`);
  process.stdout.write(Buffer.concat([line, ...payload]));
}

const requests = createInterface({ input: process.stdin, crlfDelay: Infinity });
requests.on('line', (line) => {
  /** @type {{ id: number, kind: 'run' } & import('../../agent/process/run-process.mjs').RunRequest | { id: number, kind: 'stream' } & import('../../agent/process/run-process.mjs').StreamRequest} */
  const message = JSON.parse(line);
  // The request's own fields; `kind` among them is not read.
  const { id, ...request } = message;
  if (request.kind === 'stream') {
    void streamProcess(request, streaming, (event, payload) =>
      send({ id, ...event }, payload ? [payload] : []),
    );
    return;
  }
  void runProcess(request, running).then((result) => {
    const { stdout, stderr, ...status } = result;
    send(
      { id, kind: 'result', ...status, stdoutBytes: stdout.length, stderrBytes: stderr.length },
      [stdout, stderr],
    );
  });
});
requests.on('close', () => {
  for (const child of running) child.kill('SIGTERM');
  for (const child of streaming)
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // ESRCH: the group is gone already.
    }
  process.exit(0);
});
