/**
 * How long a fresh `node` process takes to import a module: the cold start's share that is
 * ours (parse, compile and run the bundle's top level, which builds the SDK clients and the
 * router), measured inside the child around `import()`, so node's own start-up is left out.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * What a deployed API function has in its environment at import, with dummy values (the
 * handlers read TABLE_NAME, BUCKET_NAME and STATE_MACHINE_ARN at import; nothing connects).
 */
export const FUNCTION_ENVIRONMENT = {
  TABLE_NAME: 'ralph-bench-table',
  BUCKET_NAME: 'ralph-bench-bucket',
  STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:ralph-bench',
  AWS_REGION: 'us-east-1',
  POWERTOOLS_SERVICE_NAME: 'ralph-cloud',
  POWERTOOLS_LOG_LEVEL: 'INFO',
};

const IMPORT_AND_TIME =
  'const start = performance.now(); await import(process.argv[1]); ' +
  'process.stdout.write(String(performance.now() - start));';

/** `times` fresh processes, one after the other, each importing `file`: each import's ms. */
export async function importTimes(file: string, times: number): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', IMPORT_AND_TIME, pathToFileURL(file).href],
      { env: { PATH: process.env.PATH ?? '', ...FUNCTION_ENVIRONMENT } },
    );
    const ms = Number(stdout);
    if (!Number.isFinite(ms)) throw new Error(`importing ${file} printed "${stdout}"`);
    durations.push(ms);
  }
  return durations;
}

/** An empty module in `dir`: the baseline, what any `import()` costs in a fresh process. */
export async function emptyModule(dir: string): Promise<string> {
  const file = join(dir, 'empty.mjs');
  await writeFile(file, 'export {};\n');
  return file;
}
