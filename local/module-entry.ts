/**
 * How to start one of our modules on a worker thread or in a child process, whether this
 * code runs from source (the `.ts` files, under tsx or vitest) or compiled (`npm run build`:
 * the `.js` files in dist/, with no tsx installed). A new thread or process does not inherit
 * the loader that lets the parent import TypeScript, and it starts without the parent's
 * working directory guarantees: from source it is given tsx's loader by absolute location,
 * so that it works from any directory; compiled it needs none.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** A module to start, as found beside the caller (see moduleEntry). */
export interface ModuleEntry {
  /** The file that runs: the `.ts` source, or the compiled `.js` beside the compiled caller. */
  readonly path: string;
  /** Whether it is TypeScript source, which needs tsx's loader to run. */
  readonly fromSource: boolean;
  /**
   * A worker thread running the module. `options` are node:worker_threads' (workerData,
   * env, resourceLimits...), except `eval`, and `execArgv`, which this decides.
   */
  startWorker(options?: Omit<WorkerOptions, 'eval' | 'execArgv'>): Worker;
  /**
   * What to pass to `node` (process.execPath) to run the module in a child process, with
   * `args` after the module's path.
   */
  nodeArguments(...args: string[]): string[];
}

/**
 * The module `relative` (spelled as in the source tree, `./x.ts` or `../y/z.mjs`) beside
 * the caller, `callerUrl` being the caller's `import.meta.url`. When the caller runs
 * compiled, a `.ts` entry is its compiled `.js` (`.mts`: `.mjs`); `.js` and `.mjs` entries
 * are taken as they are.
 *
 * @example
 * // In local/emulator-thread.ts:
 * const worker = moduleEntry('./emulator-thread-entry.ts', import.meta.url).startWorker({ workerData });
 * // A child process (detached, say):
 * spawn(process.execPath, moduleEntry('./store-daemon.ts', import.meta.url).nodeArguments('--data-dir', dir), { detached: true });
 */
export function moduleEntry(relative: string, callerUrl: string): ModuleEntry {
  const fromSource = /\.m?ts$/.test(relative) && /\.m?ts$/.test(new URL(callerUrl).pathname);
  const url = new URL(fromSource ? relative : compiledName(relative), callerUrl);
  const path = fileURLToPath(url);
  return {
    path,
    fromSource,
    startWorker: (options = {}) =>
      fromSource
        ? // Not the parent's flags either: a tsx loader in them would register a second time.
          new Worker(workerBootstrap(url), { ...options, eval: true, execArgv: [] })
        : new Worker(url, options),
    nodeArguments: (...args) =>
      fromSource ? ['--import', tsxLoader().href, path, ...args] : [path, ...args],
  };
}

function compiledName(relative: string): string {
  return relative.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs');
}

/**
 * A worker's code that registers tsx's loader in that thread, then imports the entry.
 * A failure is thrown outside the promise, so that it reaches the Worker's 'error' event.
 */
function workerBootstrap(entry: URL): string {
  return `
import(${JSON.stringify(tsxEsmApi().href)})
  .then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })
  .catch((error) => { setImmediate(() => { throw error; }); });
`;
}

/**
 * tsx's files, found from here: not from the working directory, which may be anywhere.
 * require.resolve knows only the `require` condition, and tsx's CommonJS API cannot register
 * its ESM loader; so the ESM API comes from tsx's exports map, under `import`.
 */
function tsxEsmApi(): URL {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } }>;
  };
  const api = exports['./esm/api']?.import?.default;
  if (!api) throw new Error(`${manifest} exports no ./esm/api for import`);
  return new URL(api, pathToFileURL(manifest));
}

/** tsx's loader (what `node --import tsx` loads: its one entry for every condition). */
function tsxLoader(): URL {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx'));
}
