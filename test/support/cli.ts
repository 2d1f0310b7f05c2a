import { vi } from 'vitest';
import { main } from '../../bin/cli/main.js';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs the `ralph` CLI in-process (one invocation = one CLI process) and captures its output. */
export async function runCli(args: readonly string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    const exitCode = await main(args);
    return { exitCode, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The JSON document a `--json` invocation printed. */
export function jsonOf<T>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  }
}
