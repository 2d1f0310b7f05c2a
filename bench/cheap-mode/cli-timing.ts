/**
 * The backlog end to end through the CLI: `ralph eval FOLDER --mode cheap --json` on a folder
 * of one .txt story per file, as a child process, with the CPU time (user + system) of
 * everything it ran. Node reports no child's CPU time, so a shell runs the command and its
 * `times` builtin prints the children's. The same command on a folder of one story is the
 * baseline: starting Node, compiling the TypeScript and loading the CLI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { storyName } from './backlog.js';

export interface CliFigures {
  stories: number;
  /** CPU milliseconds of the command on the whole backlog. */
  cpuMs: number;
  /** The same on a folder of its first story: start-up and loading. */
  oneStoryCpuMs: number;
}

const CLI = resolve(import.meta.dirname, '../../bin/ralph.ts');
const TIMEOUT_MS = 180_000;

/** `times` prints the shell's own times, then its children's: "0m2.375s 0m0.491s". */
function childrenCpuMs(output: string): number {
  const last = output.trim().split('\n').at(-1) ?? '';
  const seconds = [...last.matchAll(/(\d+)m([\d.]+)s/g)].map(
    ([, minutes, rest]) => Number(minutes) * 60 + Number(rest),
  );
  if (seconds.length !== 2) throw new Error(`unexpected output of times: ${last}`);
  return (seconds[0]! + seconds[1]!) * 1000;
}

function evalCpuMs(dir: string): number {
  const output = execFileSync(
    'bash',
    ['-c', 'node --import tsx "$0" eval "$1" --mode cheap --json > /dev/null && times', CLI, dir],
    { encoding: 'utf8', timeout: TIMEOUT_MS },
  );
  return childrenCpuMs(output);
}

function writeFolder(sentences: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ralph-bench-backlog-'));
  sentences.forEach((sentence, index) =>
    writeFileSync(join(dir, `${storyName(index)}.txt`), `${sentence}\n`),
  );
  return dir;
}

/** Runs the CLI on the backlog and on its first story; the folders are removed after. */
export function cliFigures(sentences: readonly string[]): CliFigures {
  const whole = writeFolder(sentences);
  const one = writeFolder(sentences.slice(0, 1));
  try {
    return {
      stories: sentences.length,
      cpuMs: evalCpuMs(whole),
      oneStoryCpuMs: evalCpuMs(one),
    };
  } finally {
    rmSync(whole, { recursive: true, force: true });
    rmSync(one, { recursive: true, force: true });
  }
}
