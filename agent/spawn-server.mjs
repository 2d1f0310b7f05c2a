// @ts-check
/**
 * The spawn server: starts commands for the process that started it, which talks to it
 * over stdin and stdout (protocol in agent/spawn-client.ts). It ends when its stdin closes,
 * that is when that process goes away, and then stops whatever it still runs.
 */
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { runProcess } from './run-process.mjs';

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();

const requests = createInterface({ input: process.stdin, crlfDelay: Infinity });
requests.on('line', (line) => {
  /** @type {{ id: number } & import('./run-process.mjs').RunRequest} */
  const { id, ...request } = JSON.parse(line);
  void runProcess(request, live).then((result) => {
    const { stdout, stderr, ...status } = result;
    const header = JSON.stringify({
      id,
      ...status,
      stdoutBytes: stdout.length,
      stderrBytes: stderr.length,
    });
    process.stdout.write(Buffer.concat([Buffer.from(`${header}\n`), stdout, stderr]));
  });
});
requests.on('close', () => {
  for (const child of live) child.kill('SIGTERM');
  process.exit(0);
});
